// An <img>'s real source on a lazy-loading page: one home for the rule, read by the URL pass (html, images, the
// markdown of a scrape) and by the markdown converter on its own (htmlToMarkdown of any HTML).

/**
 * Where lazy-loading scripts keep an image's real URL until it scrolls into view: lazysizes, WordPress and most
 * themes (`data-src`), WP Rocket (`data-lazy-src`), jQuery Lazy Load (`data-original`), NitroPack
 * (`nitro-lazy-src`). First present wins.
 */
const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'nitro-lazy-src'] as const;

/** The same for `srcset`: lazysizes (`data-srcset`), WP Rocket (`data-lazy-srcset`), NitroPack (its own). */
const LAZY_SRCSET = ['data-srcset', 'data-lazy-srcset', 'nitro-lazy-srcset'] as const;

/** A URL only the page holds: a stand-in for the image while its lazy loader waits, or the image itself. */
const DATA_URL = /^data:/i;

function firstOf(attribs: Record<string, string>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = attribs[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/**
 * The URL an `<img>` shows once its lazy loader has run: `src`, unless it is missing or a `data:` stand-in (a 1×1
 * GIF, an empty SVG sized like the photo, a blurred preview), or a lazy loader manages the image (`hasLazyMark`), and
 * a lazy attribute holds the real one. A `data:` src with no lazy attribute is the image itself.
 */
export function imageSource(attribs: Record<string, string>): string | undefined {
  const src = attribs.src?.trim();
  if (src && !DATA_URL.test(src) && (settled.has(attribs) || !hasLazyMark(attribs))) return src;
  return firstOf(attribs, LAZY_SRC) ?? (src || undefined);
}

/** Images whose `src` the URL pass has already chosen (`settleSource`): their `src` is final. */
const settled = new WeakSet<Record<string, string>>();

/**
 * Writes the URL the URL pass chose (the largest candidate, the lazy source, resolved) into `src`, final: a later
 * `imageSource` (the markdown converter's) reads it as it is instead of choosing again from the lazy attributes.
 */
export function settleSource(attribs: Record<string, string>, src: string): void {
  attribs.src = src;
  settled.add(attribs);
}

/** Class words lazy loaders put on the images they manage: lazysizes (`lazyload`, `lazyloaded`), themes (`lazy`). */
const LAZY_CLASS = /(?:^|\s)(?:lazyload|lazyloaded|lazy)(?:\s|$)/i;

/**
 * Whether a lazy loader manages the image (a class word of `LAZY_CLASS`, vanilla-lazyload's `data-ll-status`, WP
 * Rocket's `data-lazy-src`): its `src` may then be a placeholder file (`grey.gif`, `placeholder.png`), and a lazy
 * attribute holding another URL is the image.
 */
function hasLazyMark(attribs: Record<string, string>): boolean {
  return (
    attribs['data-lazy-src'] !== undefined ||
    attribs['data-ll-status'] !== undefined ||
    LAZY_CLASS.test(attribs.class ?? '')
  );
}

/**
 * Whether an `<img>` shows no image of its own: no source, or only a `data:` stand-in (even once its lazy loader has
 * run). Such an image is a placeholder that a `<noscript>` copy beside it may stand in for.
 */
export function lacksRealSource(attribs: Record<string, string>): boolean {
  const src = imageSource(attribs);
  return !src || DATA_URL.test(src);
}

/**
 * An `<img>`'s or a `<source>`'s candidate list once its lazy loader has run, by `imageSource`'s rule: `srcset`,
 * unless it is missing or a `data:` stand-in (NitroPack's empty SVG sized like the photo) and a lazy attribute holds
 * the real one. A `data:` srcset with no lazy attribute is the image itself (a theme's 1×1 source that hides a
 * logo on wide screens).
 */
export function imageSrcset(attribs: Record<string, string>): string | undefined {
  const srcset = attribs.srcset?.trim();
  if (srcset && !DATA_URL.test(srcset)) return srcset;
  return firstOf(attribs, LAZY_SRCSET) ?? (srcset || undefined);
}
