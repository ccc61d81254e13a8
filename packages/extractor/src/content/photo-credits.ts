// Photo credits outside a `<figcaption>`: the line under a picture that names its photographer or agency.

/**
 * A photo credit holds at most this many visible characters: a name or two and an agency, not a sentence of the story.
 */
export const MAX_PHOTO_CREDIT = 100;

/**
 * A label naming a picture's source, then its author ("Photo: Jane Doe/Getty Images", "Image credit: © Depositphotos",
 * "Illustration: Chris Roe", "Photo by Jane Doe on Unsplash"). It starts with a capital: `image: nginx:1.25` in a
 * YAML sample is code, not a credit.
 */
const CREDIT_LABEL =
  /^(?:©\s*)?(?:Photo|Image|Picture|Illustration|Photograph|PHOTO|IMAGE|ILLUSTRATION)s?(?: credits?)?\s*(?::|\bby\b)\s*\S/;

/**
 * A credit ending in a stock agency after a separator ("Jane Doe/Getty Images", "Jane Doe via Getty Images",
 * "© guoya / Getty Images", "Image used under license from Shutterstock"); a bare agency name ("Supports Unsplash",
 * in a list of an app's features) is not one.
 */
const AGENCY_CREDIT =
  /(?:\/|\bvia|©|\bfrom|\bon)\s*(?:getty images|shutterstock|istock(?:photo)?|adobe stock|depositphotos|unsplash|pexels|alamy)(?:\.com)?\s*\.?$/i;

/** Whether a short block's text (at most `MAX_PHOTO_CREDIT` characters) is a photo credit. */
export function isPhotoCredit(text: string): boolean {
  return CREDIT_LABEL.test(text) || AGENCY_CREDIT.test(text);
}
