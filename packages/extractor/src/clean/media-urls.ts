// The media attributes of the `html` format made absolute, beside `img[src]` and `a[href]` (which `absolutize`
// rewrites): a renderer of the cleaned html has neither the page's URL nor its `<base>`, and the markdown's embed
// lines (`markdownOptions.embeds`) read the same `src`.
import type { Element } from 'domhandler';

import { parseSrcset } from '../dom/urls.js';

/** Resolves one attribute URL against the document's base; undefined when it cannot be parsed. */
export type ResolveUrl = (raw: string) => string | undefined;

/**
 * `srcset` with each candidate's URL resolved and everything else (descriptors, commas, spacing) as written. A
 * `data:` or `blob:` candidate, or one that does not resolve, stays as it is.
 */
export function absoluteSrcset(srcset: string, resolve: ResolveUrl): string {
  let out = '';
  let from = 0;
  for (const { url } of parseSrcset(srcset)) {
    // the candidates come in order, each URL the first run after the previous one's end
    const at = srcset.indexOf(url, from);
    if (at < 0) break;
    const resolved = /^(data|blob):/i.test(url) ? url : (resolve(url) ?? url);
    out += srcset.slice(from, at) + resolved;
    from = at + url.length;
  }
  return out + srcset.slice(from);
}

/** Elements whose `src` is a media or frame URL (`img[src]` is `absolutize`'s own). */
const MEDIA_SOURCES = new Set(['iframe', 'video', 'audio', 'source', 'track', 'embed']);

/** A URL only the page can read or that runs code: left as written. */
const KEPT_AS_WRITTEN = /^\s*(?:data|blob|javascript|about):/i;

/** `attribs[name]` resolved in place, unless empty or kept as written. */
function rewrite(attribs: Record<string, string>, name: string, resolve: ResolveUrl): void {
  const value = attribs[name]?.trim();
  if (value && !KEPT_AS_WRITTEN.test(value)) attribs[name] = resolve(value) ?? attribs[name]!;
}

/**
 * Rewrites `el`'s `srcset` (`<img>`, `<source>`), `<video poster>` and the `src` of frames, players and their
 * sources absolute, in place.
 */
export function absolutizeMediaUrls(el: Element, resolve: ResolveUrl): void {
  const { attribs } = el;
  if ((el.name === 'img' || el.name === 'source') && attribs.srcset) {
    attribs.srcset = absoluteSrcset(attribs.srcset, resolve);
  }
  if (el.name === 'video') rewrite(attribs, 'poster', resolve);
  if (MEDIA_SOURCES.has(el.name)) rewrite(attribs, 'src', resolve);
}
