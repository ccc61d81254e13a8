import type { UrlResolver } from './urls.js';

/** Text with no letter or digit: the `#`, `¶`, `§` or link icon of a heading's permalink. */
const SYMBOL_TEXT = /^[^\p{L}\p{N}]*$/u;
/** Link text that is one image without alt text: a permalink's icon (`<img src="anchorlink-icon.png">`). */
const ICON_IMAGE = /^!\[\]\([^\s()]*\)$/;

/** Whether `href` leads to the page itself: a bare fragment, or the page's URL (else the base) with one. */
export function samePage(href: string, pageUrl: string | undefined, urls: UrlResolver): boolean {
  if (href.startsWith('#')) return true;
  const page = pageUrl ?? urls.resolve('');
  return page !== '' && urls.resolve(href).split('#')[0] === page.split('#')[0];
}

/**
 * Whether a link's converted text is a permalink's mark (`#`, `¶`, `§`, `\u200b`, an icon without alt text) rather
 * than words: such a link in a heading, or to the heading or term it sits in, is dropped.
 */
export function isPermalinkText(text: string): boolean {
  return SYMBOL_TEXT.test(text) || ICON_IMAGE.test(text);
}
