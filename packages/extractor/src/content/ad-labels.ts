// Labels of ad slots inside a story: "Advertisement - Page continues below", "Advertisement. Scroll to continue
// reading.", "Advertisement (gone after registration)", and headings that title a house ad ("Advertisement: New
// book!").

/** An ad label holds at most this many characters: the label and a short notice, not a sentence of the story. */
export const MAX_AD_LABEL = 80;

/**
 * "Advertisement", then a separator and a short notice about the ad or the page going on. A sentence about
 * advertisements ("Advertisements in this issue are paid for ...") has no separator after the word.
 */
const AD_LABEL = /^advertisements?\s*(?:[-–—.:·•|(]\s*.{0,60})?$/i;

/** Whether a short block's text (at most `MAX_AD_LABEL` characters) labels an ad slot. */
export function isAdLabel(text: string): boolean {
  return AD_LABEL.test(text);
}

/** A heading "Advertisement" or "Advertisement: <the ad's title>" opens a section that is the ad. */
export const AD_HEADING = /^advertisements?(?::|$)/i;
