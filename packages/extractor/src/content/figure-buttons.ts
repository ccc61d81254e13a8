// A lightbox opener: a `<button>` with no text around one of the story's pictures, which a click enlarges. The empty
// control rule drops buttons without text (icons, close and menu toggles, thumbnail strips); a picture declared at
// figure size inside one is content, and stays with its alt text.
import type { Element } from 'domhandler';

import { elements } from '../dom/walk.js';

/**
 * The least declared width or height, in CSS pixels, of a figure. Icons, avatars and gallery thumbnails declare far
 * less (16–150); a story's pictures declare their full size (often 800–4000).
 */
export const MIN_FIGURE_SIZE = 400;

/** Whether a text-less `button` holds exactly one image, declared at least `MIN_FIGURE_SIZE` wide or high. */
export function isFigureButton(button: Element): boolean {
  let figure: Element | undefined;
  for (const el of elements(button)) {
    if (el.name !== 'img') continue;
    if (figure) return false;
    figure = el;
  }
  if (!figure) return false;
  const a = figure.attribs;
  const size = Math.max(Number.parseInt(a['width'] ?? '', 10) || 0, Number.parseInt(a['height'] ?? '', 10) || 0);
  return size >= MIN_FIGURE_SIZE;
}
