import { siteHostname } from '@crawlkit/options/site-host';
import { isRouteFragment } from '@crawlkit/options/route-fragment';
import { isSessionParam, PATH_SESSION } from '@crawlkit/options/session-params';

/** Query parameters that only track the visitor and never change the page. */
const TRACKING = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'spm',
  'ref_src',
  // Google's auto-tagging of merchant listings: any shop's product URL reached from Google Shopping carries one.
  'srsltid',
  // Shopify's storefront, on every shop it hosts: product recommendation rails.
  'pr_prod_strat',
  'pr_rec_id',
  'pr_rec_pid',
  'pr_ref_pid',
  'pr_seq',
  // Applicant tracking systems' source tags on a job posting's link (Greenhouse, Lever): the board, ad or referrer
  // it was reached from. Greenhouse's `gh_jid` is not one of them: on an embedded board it names the posting.
  'gh_src',
  'lever-source',
  'lever-origin',
]);

/**
 * Shopify's search results (`?_pos=1&_sid=3f2a&_ss=r`) and predictive search (`?_pos=1&_psq=boot&_ss=e&_v=1.0`): the
 * result's position and the search it came from. The names are generic (a site may page with its own `_pos`), so they
 * are noise only in a query holding both `_pos` and `_ss`, the pair Shopify always writes.
 */
const SHOPIFY_SEARCH = new Set(['_pos', '_sid', '_ss', '_psq', '_v']);

/**
 * The column-sort links of a directory listing served by Apache's `mod_autoindex` (`/share/?C=N;O=D`: by name, last
 * modified, size or description, ascending or descending): the same listing in another order, each of which links the
 * other sorts again. A crawl of a file share would read every listing five times; the key is the listing's own.
 */
const LISTING_SORT = /^\?C=[NMSD][;&]O=[AD]$/;

/** A query parameter that never changes the page: tracking (`utm_*`, `fbclid`, …) or a session id. */
function isNoiseParam(key: string, value: string): boolean {
  const k = key.toLowerCase();
  return k.startsWith('utm_') || TRACKING.has(k) || isSessionParam(k, value);
}

export interface NormalizeOptions {
  /** Drop the whole query string. @default false */
  ignoreQueryParameters?: boolean;
  /**
   * Treat `http`/`https`, `www.`/bare host and `/`, `/index.html`, `/index.php` as the same page (v2's
   * `deduplicateSimilarURLs`). @default true
   */
  foldSimilar?: boolean;
}

const UNRESERVED = /%(2[DE]|3[0-9]|4[1-9A-F]|5[0-9A]|5F|6[1-9A-F]|7[0-9A]|7E)/gi;

/** Upper-cases percent escapes and decodes those of unreserved characters (RFC 3986 §6.2.2). */
function normalizePercent(value: string): string {
  return value
    .replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase())
    .replace(UNRESERVED, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
}

/**
 * `value` with its percent-escapes decoded where they spell UTF-8 (`/%C3%BCber%20uns` → `/über uns`); an escape that
 * does not (`50%off`, `%E0%A4%A`, a Latin-1 byte) stays as written. Never throws, unlike `decodeURIComponent`.
 */
export function decodePercent(value: string): string {
  if (!value.includes('%')) return value;
  return value.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A fragment that is a client-side route (`#/x`, `#!x`, `#docs/x`) names a different page. */
export { isRouteFragment };

/**
 * The de-duplication key of a URL: lower-cased host without `www.`, no scheme, default port, fragment (unless a
 * route), tracking parameters and session ids (`;jsessionid=…`, `?PHPSESSID=…`) dropped, other parameters sorted,
 * percent-encoding normalised, and `/index.html`, `/index.php` and a trailing slash folded. Returns the input trimmed
 * when it is not an absolute URL.
 */
export function normalizeUrl(input: string, options: NormalizeOptions = {}): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return input.trim();
  }
  return keyOf(url, options);
}

/**
 * `normalizeUrl(input)` when the caller has parsed `input` already (`parsed` is `new URL(input)`): the same key, with
 * no second parse. `normalizeUrl` parses the input trimmed, so an input with white space at its ends is parsed again.
 */
export function normalizeParsedUrl(input: string, parsed: URL, options: NormalizeOptions = {}): string {
  return input === input.trim() ? keyOf(parsed, options) : normalizeUrl(input, options);
}

function keyOf(url: URL, options: NormalizeOptions): string {
  const fold = options.foldSimilar ?? true;
  let host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (fold) host = siteHostname(host);
  const port = url.port ? `:${url.port}` : '';
  let path = normalizePercent(url.pathname.replace(PATH_SESSION, ''));
  if (fold) path = path.replace(/\/index\.(?:html?|php)$/i, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (path === '/') path = '';

  let query = '';
  if (!options.ignoreQueryParameters && url.search && !(url.pathname.endsWith('/') && LISTING_SORT.test(url.search))) {
    const shopifySearch = url.searchParams.has('_pos') && url.searchParams.has('_ss');
    const params = [...url.searchParams].filter(
      ([k, v]) => !isNoiseParam(k, v) && !(shopifySearch && SHOPIFY_SEARCH.has(k)),
    );
    params.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
    if (params.length) query = `?${new URLSearchParams(params).toString()}`;
  }
  const hash = isRouteFragment(url.hash) ? url.hash : '';
  const scheme = fold ? '' : `${url.protocol}`;
  return `${scheme}//${host}${port}${path}${query}${hash}`;
}

/** Resolves a page's `rel=canonical` href; undefined when it is unusable (another scheme, unparsable). */
export function canonicalUrl(pageUrl: string, canonicalHref: string | undefined): string | undefined {
  if (!canonicalHref) return undefined;
  try {
    const url = new URL(canonicalHref.trim(), pageUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The 16 variants of a URL that `foldSimilar` treats as one page (scheme × www × index/trailing slash). */
export function urlPermutations(input: string): string[] {
  const url = new URL(input);
  const bare = siteHostname(url.hostname);
  const path = url.pathname.replace(/\/(?:index\.(?:html|php))?$/, '');
  const out: string[] = [];
  for (const scheme of ['http:', 'https:']) {
    for (const host of [bare, `www.${bare}`]) {
      for (const suffix of ['', '/', '/index.html', '/index.php']) {
        out.push(`${scheme}//${host}${url.port ? `:${url.port}` : ''}${path}${suffix}${url.search}`);
      }
    }
  }
  return out;
}
