// An <img>'s real source on a lazy-loading page: one home for the rule, read by the URL pass (html, images, the
// markdown of a scrape) and by the markdown converter on its own (htmlToMarkdown of any HTML).

/**
 * Where lazy-loading scripts keep an image's real URL until it scrolls into view: lazysizes, WordPress and most
 * themes (`data-src`), WP Rocket (`data-lazy-src`), jQuery Lazy Load (`data-original`). First present wins.
 */
const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original'] as const;

/** The same for `srcset`: lazysizes (`data-srcset`), WP Rocket (`data-lazy-srcset`). */
const LAZY_SRCSET = ['data-srcset', 'data-lazy-srcset'] as const;

function firstOf(attribs: Record<string, string>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = attribs[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/**
 * The URL an `<img>` shows once its lazy loader has run: `src`, unless it is missing or a `data:` stand-in (a 1×1
 * GIF, an empty SVG sized like the photo, a blurred preview) and a lazy attribute holds the real one. A `data:` src
 * with no lazy attribute is the image itself.
 */
export function imageSource(attribs: Record<string, string>): string | undefined {
  const src = attribs.src?.trim();
  if (src && !/^data:/i.test(src)) return src;
  return firstOf(attribs, LAZY_SRC) ?? (src || undefined);
}

/**
 * Whether an `<img>` shows no image of its own: no source, or only a `data:` stand-in (even once its lazy loader has
 * run). Such an image is a placeholder that a `<noscript>` copy beside it may stand in for.
 */
export function lacksRealSource(attribs: Record<string, string>): boolean {
  const src = imageSource(attribs);
  return !src || /^data:/i.test(src);
}

/** An `<img>`'s candidate list: `srcset`, else the one a lazy loader keeps aside. */
export function imageSrcset(attribs: Record<string, string>): string | undefined {
  return attribs.srcset?.trim() || firstOf(attribs, LAZY_SRCSET);
}
