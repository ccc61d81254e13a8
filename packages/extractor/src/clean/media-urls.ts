// The media attributes of the `html` format made absolute, beside `img[src]` and `a[href]` (which `absolutize`
// rewrites): a renderer of the cleaned html has neither the page's URL nor its `<base>`.
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

/** Rewrites `el`'s `srcset` (`<img>`, `<source>`) and `<video poster>` absolute, in place. */
export function absolutizeMediaUrls(el: Element, resolve: ResolveUrl): void {
  const { attribs } = el;
  if ((el.name === 'img' || el.name === 'source') && attribs.srcset) {
    attribs.srcset = absoluteSrcset(attribs.srcset, resolve);
  } else if (el.name === 'video' && attribs.poster?.trim()) {
    const poster = attribs.poster.trim();
    if (!/^(data|blob):/i.test(poster)) attribs.poster = resolve(poster) ?? attribs.poster;
  }
}
