import { isRouteFragment } from '@crawlkit/options/route-fragment';
import { Document, hasChildren, isComment, isDirective, type AnyNode, type Element } from 'domhandler';

import { imageSource, imageSrcset, settleSource } from '../dom/lazy-images.js';
import { selectSafe } from '../dom/select.js';
import { largestCandidate, parseSrcset, resolveHref, resolveUrl } from '../dom/urls.js';
import { detachAll, elements, relink } from '../dom/walk.js';
import type { WarningSink } from '../page-warnings.js';
import { absolutizeMediaUrls } from './media-urls.js';

/**
 * Elements `removeUnwanted` always removes: they never hold content (reference §10.1 step 3, plus `template` and stray
 * `link`s).
 */
export const NON_CONTENT: ReadonlySet<string> = new Set([
  'head',
  'meta',
  'noscript',
  'style',
  'script',
  'template',
  'link',
]);

/** A new document holding the elements matching the selectors, in selector order (nested matches once). */
export function selectIncluded(document: Document, selectors: readonly string[], warnings: WarningSink): Document {
  const chosen: Element[] = [];
  const taken = new Set<Element>();
  for (const selector of selectors) {
    for (const el of selectSafe(selector, document, warnings, 'includeTags')) {
      if (taken.has(el)) continue;
      taken.add(el);
      chosen.push(el);
    }
  }
  if (chosen.length === 0) warnings.push(noIncludedMatchWarning(selectors));
  // Keep outermost matches only: a match inside another one is already included.
  const outer = chosen.filter((el) => {
    for (let p = el.parent; p; p = p.parent) if (taken.has(p as Element)) return false;
    return true;
  });
  detachAll(outer);
  const result = new Document([]);
  relink(result, outer);
  return result;
}

/** Said when no element of the page matched any `includeTags` selector: the result is empty, not for want of text. */
export function noIncludedMatchWarning(selectors: readonly string[]): string {
  const shown = selectors.map((s) => JSON.stringify(s)).join(', ');
  return (
    `No element of the page matched includeTags (${shown}), so the result is empty: check the selectors against the ` +
    "page's HTML (the rawHtml format), or scrape without includeTags."
  );
}

/** Removes non-content elements and the `excludeTags` matches. */
export function removeUnwanted(
  root: Document,
  excludeTags: readonly string[] | undefined,
  warnings: WarningSink,
): void {
  const doomed: AnyNode[] = [];
  for (const el of elements(root)) if (NON_CONTENT.has(el.name)) doomed.push(el);
  // Comments and processing instructions carry nothing either.
  collectComments(root, doomed);
  detachAll(doomed);
  removeExcluded(root, excludeTags, warnings);
}

/**
 * Whether `excludeTags` are matched on the page as served, before the main content is chosen (v2's order): with
 * `onlyMainContent` and no `includeTags`. Otherwise they are matched on what is kept.
 */
export function excludesBeforeMain(includeTags: readonly string[], onlyMainContent: boolean): boolean {
  return !includeTags.length && onlyMainContent;
}

/** Removes the `excludeTags` matches. */
export function removeExcluded(
  root: Document,
  excludeTags: readonly string[] | undefined,
  warnings: WarningSink,
): void {
  for (const selector of excludeTags ?? []) detachAll(selectSafe(selector, root, warnings, 'excludeTags'));
}

function collectComments(root: Document, out: AnyNode[]): void {
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (isComment(node) || isDirective(node)) {
      if (node.parent) out.push(node);
      continue;
    }
    if (hasChildren(node)) for (const child of node.children) stack.push(child);
  }
}

export interface UrlPassResult {
  /** Links for the `links` format: http(s) and mailto, fragment-only hrefs left out, first-seen order. */
  links: string[];
  /** Image URLs for the `images` format, first-seen order. */
  images: string[];
}

const URL_OPENER = /url\(/gi;
const SPACE = /\s/;
const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * The `url(...)` values of a CSS declaration list, exactly as `style.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/gi)`
 * finds them, in one pass: the regex rescans the rest of the line from every `url(` that never closes, which is
 * quadratic in a long style attribute.
 */
export function cssUrls(style: string): string[] {
  const out: string[] = [];
  URL_OPENER.lastIndex = 0;
  let opener = URL_OPENER.exec(style);
  if (!opener) return out;
  const n = style.length;
  // for every position, from the end: the next non-space, the next line end, the next `)`, and the next quote of
  // each kind that closes (a quote with only spaces between it and a `)`)
  const nonSpace = new Int32Array(n + 1);
  const lineEnd = new Int32Array(n + 1);
  const close = new Int32Array(n + 1);
  const closingQuote = { '"': new Int32Array(n + 1), "'": new Int32Array(n + 1) };
  nonSpace[n] = lineEnd[n] = close[n] = closingQuote['"'][n] = closingQuote["'"][n] = n;
  for (let i = n - 1; i >= 0; i--) {
    const c = style[i]!;
    nonSpace[i] = SPACE.test(c) ? nonSpace[i + 1]! : i;
    lineEnd[i] = LINE_END.test(c) ? i : lineEnd[i + 1]!;
    close[i] = c === ')' ? i : close[i + 1]!;
    const closes = style[nonSpace[i + 1]!] === ')';
    closingQuote['"'][i] = c === '"' && closes ? i : closingQuote['"'][i + 1]!;
    closingQuote["'"][i] = c === "'" && closes ? i : closingQuote["'"][i + 1]!;
  }
  // the start of the run of spaces that ends at each position
  const spaceRun = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) spaceRun[i] = i > 0 && SPACE.test(style[i - 1]!) ? spaceRun[i - 1]! : i;

  while (opener) {
    const b = nonSpace[opener.index + 4]!;
    const quote = style[b];
    let value: string | undefined;
    let end = -1;
    if (quote === '"' || quote === "'") {
      const j = closingQuote[quote][b + 1]!;
      if (j < n && j < lineEnd[b + 1]!) {
        value = style.slice(b + 1, j);
        end = close[j + 1]! + 1;
      }
    }
    if (value === undefined) {
      const r = close[b]!;
      const j = r < n ? Math.max(b, spaceRun[r]!) : n;
      if (r < n && lineEnd[b]! >= j) {
        value = style.slice(b, j);
        end = r + 1;
      }
    }
    if (value !== undefined) {
      out.push(value);
      URL_OPENER.lastIndex = end;
    } else URL_OPENER.lastIndex = opener.index + 1;
    opener = URL_OPENER.exec(style);
  }
  return out;
}

/** What `absolutize` collects besides rewriting the tree, and what it rewrites; what is not asked for costs nothing. */
export interface UrlPassCollect {
  /** @default true */
  links?: boolean;
  /** @default true */
  images?: boolean;
  /**
   * Rewrite `srcset`, `video[poster]` and the `src` of frames and players absolute (`absolutizeMediaUrls`): only the
   * `html` format, raw-HTML markdown and markdown's embed lines read them (`img[src]` is rewritten whatever this
   * says).
   * @default true
   */
  mediaAttributes?: boolean;
}

/**
 * `imageSrcset`, written into `srcset` when it replaces a `data:` stand-in: the `html` format then shows what a
 * browser shows once the lazy loader has run, as `img[src]` does (`settleSource`).
 */
function shownSrcset(attribs: Record<string, string>): string | undefined {
  const srcset = imageSrcset(attribs);
  if (srcset && attribs.srcset !== undefined && srcset !== attribs.srcset.trim()) attribs.srcset = srcset;
  return srcset;
}

/**
 * Picks the largest `srcset` candidate (and lazy `data-*` sources) into `img[src]`, makes `img[src]`, `a[href]`
 * and, unless `collect.mediaAttributes` is false, the media attributes (`absolutizeMediaUrls`) absolute against
 * `base` (their queries in the document's `encoding`), and collects links and images on the way (those `collect`
 * asks for).
 */
export function absolutize(
  root: Document,
  base: string,
  pageUrl: string,
  collect: UrlPassCollect = {},
  encoding?: string,
): UrlPassResult {
  const collectLinks = collect.links ?? true;
  const collectImages = collect.images ?? true;
  const mediaAttributes = collect.mediaAttributes ?? true;
  const links = new Set<string>();
  const images = new Set<string>();
  const addImage = (raw: string | undefined, against = base) => {
    if (!raw || !collectImages) return;
    const value = raw.trim();
    if (value.startsWith('data:') || value.startsWith('blob:')) {
      images.add(value);
      return;
    }
    if (/^javascript:/i.test(value)) return;
    const resolved = resolveUrl(value, value.startsWith('//') ? pageUrl : against, encoding);
    if (resolved) images.add(resolved);
  };
  const resolveMedia = (raw: string) => resolveUrl(raw, raw.trim().startsWith('//') ? pageUrl : base, encoding);

  // a page links to the same few places again and again (its menus, its tags): each href is resolved once
  const hrefs = new Map<string, string | undefined>();
  for (const el of elements(root)) {
    const attribs = el.attribs;
    if (el.name === 'a' && attribs.href !== undefined) {
      const href = attribs.href.trim();
      let resolved = hrefs.get(href);
      if (resolved === undefined && !hrefs.has(href)) hrefs.set(href, (resolved = resolveHref(href, base, encoding)));
      if (resolved) {
        attribs.href = resolved;
        if (collectLinks && !href.startsWith('#') && /^(https?|mailto):/i.test(resolved)) links.add(resolved);
      }
    } else if (el.name === 'img') {
      const srcset = shownSrcset(attribs);
      const src = imageSource(attribs);
      const candidates = srcset ? parseSrcset(srcset) : undefined;
      const best = candidates ? largestCandidate(candidates, src) : src;
      if (candidates) for (const c of candidates) addImage(c.url);
      addImage(attribs['data-src']);
      if (best) {
        const resolved = best.startsWith('data:')
          ? best
          : resolveUrl(best, best.startsWith('//') ? pageUrl : base, encoding);
        if (resolved) {
          settleSource(attribs, resolved);
          addImage(resolved);
        }
      }
    } else if (el.name === 'source') {
      const srcset = shownSrcset(attribs);
      if (collectImages && srcset) for (const c of parseSrcset(srcset)) addImage(c.url);
    } else if (collectImages && el.name === 'video' && attribs.poster) {
      addImage(attribs.poster);
    }
    if (mediaAttributes) absolutizeMediaUrls(el, resolveMedia);
    const style = attribs.style;
    if (collectImages && style && /background/i.test(style)) for (const url of cssUrls(style)) addImage(url);
  }
  return { links: [...links], images: [...images] };
}

/** A `rel` naming the next page of a series (its tokens are space-separated and case-insensitive). */
const NEXT = /(?:^|\s)next(?:\s|$)/i;

/**
 * Every link of a document (crawl discovery): http(s) `a[href]` and `area[href]`, and `<link rel="next">` (a paged
 * listing's next page, which some shops name only there), resolved, de-duplicated, without their fragment unless
 * it is a client-side route (`#/guide`, `#!/x`: another page of a single-page app). Their queries are in the
 * document's `encoding`, as a browser sends them.
 */
export function discoveryLinks(document: Document, base: string, encoding?: string): string[] {
  const out = new Set<string>();
  // A docs page links to the same pages again and again, to a different anchor each time (`os.html#os.stat`): the
  // fragment plays no part in resolving the rest, so it is cut first and each page's address is resolved once.
  const resolvedOf = new Map<string, string | undefined>();
  for (const el of elements(document)) {
    if (el.name !== 'a' && el.name !== 'area' && !(el.name === 'link' && NEXT.test(el.attribs.rel ?? ''))) continue;
    const href = el.attribs.href?.trim();
    if (!href) continue;
    const hash = href.indexOf('#');
    if (hash >= 0 && isRouteFragment(href.slice(hash))) {
      const route = resolveUrl(href, base, encoding);
      if (route !== undefined && /^https?:/i.test(route)) out.add(route);
      continue;
    }
    // A plain anchor on this page (`#intro`) is this page.
    if (hash === 0) continue;
    const address = hash >= 0 ? href.slice(0, hash) : href;
    let resolved = resolvedOf.get(address);
    if (resolved === undefined && !resolvedOf.has(address)) {
      resolved = resolveUrl(address, base, encoding);
      if (resolved !== undefined && !/^https?:/i.test(resolved)) resolved = undefined;
      resolvedOf.set(address, resolved);
    }
    if (resolved !== undefined) out.add(resolved);
  }
  return [...out];
}
