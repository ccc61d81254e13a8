import { domainToUnicode } from 'node:url';

import { siteHostname } from '@crawlkit/options/site-host';
import { getDomain } from 'tldts';

import { decodePercent, isRouteFragment } from './normalize.js';
import { compilePathPattern, type PathPattern } from './path-pattern.js';

/** Why a discovered URL is not crawled (reference §13.2). */
export type DenialReason =
  | 'URL_PARSE_ERROR'
  | 'NON_WEB_PROTOCOL'
  | 'FILE_TYPE'
  /** Not given by these rules any more: a link to a place in a page is admitted as the page (`admit`). */
  | 'SECTION_LINK'
  | 'BACKWARD_CRAWLING'
  | 'EXCLUDE_PATTERN'
  | 'INCLUDE_PATTERN'
  | 'SOCIAL_MEDIA'
  | 'EXTERNAL_LINK'
  /** Longer than `maxUrlLength`: a link that grows on every page (a crawl trap). */
  | 'URL_TOO_LONG'
  /** A path segment repeated more than `maxPathSegmentRepeats` times (a calendar, a relative-link loop). */
  | 'REPEATING_PATH';

export type RuleVerdict = { allowed: true } | { allowed: false; reason: DenialReason };

/** `check`'s verdict with what an admitted URL's caller needs next, so that nothing parses the URL again. */
export type RuleAdmission =
  | {
      allowed: true;
      /** `new URL(url)`. */ parsed: URL;
      /** Same site as the seed (`isInternal`). */ internal: boolean;
    }
  | { allowed: false; reason: DenialReason };

export interface CrawlRulesOptions extends PathPatternOptions {
  /** The crawl's start URL: defines the site and, without `crawlEntireDomain`, the scope. */
  seedUrl: string;
  /** Follow any internal link, not only those under the seed's directory. @default false */
  crawlEntireDomain?: boolean;
  /** Follow links to other sites found on in-scope pages. @default false */
  allowExternalLinks?: boolean;
  /** Follow links to other hosts of the same registrable domain. @default false */
  allowSubdomains?: boolean;
  /** Longest URL followed, in characters of its normalised form (`URL#href`). @default 2048 */
  maxUrlLength?: number;
  /**
   * Most times one path segment may appear in a URL's path: `/a/b/a/b/a/b/a` has `a` four times. Crawl traps (a
   * relative link that nests a page in itself, calendars linking month to month) repeat their segments.
   * @default 3
   */
  maxPathSegmentRepeats?: number;
}

/** The default of `CrawlRulesOptions.maxUrlLength`. */
export const DEFAULT_MAX_URL_LENGTH = 2048;
/** The default of `CrawlRulesOptions.maxPathSegmentRepeats`. */
export const DEFAULT_MAX_PATH_SEGMENT_REPEATS = 3;

/** Whether some non-empty segment of `pathname` appears more than `max` times (case-insensitive). */
export function hasRepeatingSegments(pathname: string, max: number): boolean {
  const counts = new Map<string, number>();
  for (const segment of pathname.toLowerCase().split('/')) {
    if (segment === '') continue;
    const n = (counts.get(segment) ?? 0) + 1;
    if (n > max) return true;
    counts.set(segment, n);
  }
  return false;
}

const NON_WEB = new Set(['mailto:', 'tel:', 'telnet:', 'ftp:', 'ftps:', 'ssh:', 'file:', 'javascript:', 'data:']);
const FILE_EXTENSIONS = new Set(
  'png jpg jpeg gif css js ico svg tiff zip exe dmg mp4 mp3 wav pptx xlsx avi flv woff ttf woff2 webp inc'.split(' '),
);
const SOCIAL = [
  'facebook.com',
  'twitter.com',
  'linkedin.com',
  'instagram.com',
  'pinterest.com',
  'github.com',
  'calendly.com',
  'discord.gg',
  'discord.com',
];

const ALLOWED: RuleVerdict = Object.freeze({ allowed: true });

/** Whether the last path segment ends in a file extension that is never a page (reference §21 item 30). */
export function isFileUrl(pathname: string): boolean {
  const last = pathname.split('/').pop() ?? '';
  const dot = last.lastIndexOf('.');
  return dot > 0 && FILE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}

/** Non-empty path segments, `index.html`/`index.php` not counted (reference §21 item 28). */
export function urlDepth(url: string): number {
  const path = new URL(url).pathname;
  return path.split('/').filter((s) => s !== '' && s !== 'index.html' && s !== 'index.php').length;
}

/**
 * The directory a seed admits without `crawlEntireDomain`: a seed ending in `/` is that directory; a seed whose
 * last segment looks like a file admits its directory; otherwise the seed path itself and anything under it.
 * So `/docs` admits `/docs` and `/docs/x`, never `/docsearch`.
 */
export function inSeedScope(seedPath: string, path: string): boolean {
  if (seedPath === '' || seedPath === '/') return true;
  if (seedPath.endsWith('/')) return path.startsWith(seedPath);
  const last = seedPath.split('/').pop() ?? '';
  if (/\.[a-z0-9]{2,}$/i.test(last)) return path.startsWith(seedPath.slice(0, seedPath.length - last.length));
  return path === seedPath || path.startsWith(`${seedPath}/`);
}

/**
 * Compiles patterns as the crawl runs them (`compilePathPattern`); returns the first one refused with why (JavaScript's
 * message for bad syntax, what to write instead for a construct the linear-time engine does not run), if any.
 */
export function validateCrawlPatterns(patterns: readonly string[]): { pattern: string; message: string } | undefined {
  for (const pattern of patterns) {
    const compiled = compilePathPattern(pattern);
    if ('error' in compiled) return { pattern, message: compiled.error };
  }
  return undefined;
}

function compile(patterns: readonly string[] | undefined): PathPattern[] {
  const out: PathPattern[] = [];
  for (const p of patterns ?? []) {
    // In NFC, as the URLs' read forms are matched: `café` typed with one accent or with a combining one is one word.
    const compiled = compilePathPattern(p.normalize('NFC'));
    // Validated at the API boundary; a refused pattern here is ignored, as upstream ignores an invalid one.
    if ('pattern' in compiled) out.push(compiled.pattern);
  }
  return out;
}

/** What `includePaths`, `excludePaths` and `regexOnFullURL` say of a URL: the crawl's rules and map share them. */
export interface PathPatternOptions {
  /** Regexes; a URL must match one (pathname, or full URL with `regexOnFullURL`). @default [] */
  includePaths?: readonly string[];
  /** Regexes; a matching URL is refused. @default [] */
  excludePaths?: readonly string[];
  /** Match the patterns against the full URL instead of the pathname. @default false */
  regexOnFullURL?: boolean;
}

export interface PathPatterns {
  /** Whether an `excludePaths` pattern matches (the full URL when `fullUrl`, else as `regexOnFullURL` says). */
  excluded(url: URL, fullUrl?: boolean): boolean;
  /** Whether `includePaths` is empty or one of its patterns matches. */
  included(url: URL): boolean;
}

/**
 * The forms of a URL a pattern is tried on: its pathname (or whole URL) as the URL writes it, percent-encoded, and
 * decoded when that differs. A person writes `über` or `release notes` for `/%C3%BCber` and `/release%20notes`; a
 * pattern written against the encoded form still matches it. Escapes that are not UTF-8 stay as they are. The whole
 * URL's decoded form has its host in Unicode too (`例え.jp` for `xn--r8jz45g.jp`), as a person writes it. The decoded
 * form is read in NFC, as the patterns are: `/cafe%CC%81` (an `e` and a combining accent, as macOS file names and some
 * editors write it) is `/café` to a pattern written either way.
 */
function patternTargets(url: URL, fullUrl: boolean): string[] {
  const written = fullUrl ? url.href : url.pathname;
  let decoded = decodePercent(written);
  if (fullUrl && url.hostname.includes('xn--')) {
    const host = domainToUnicode(url.hostname);
    if (host) decoded = decoded.replace(`//${url.hostname}`, `//${host}`);
  }
  decoded = decoded.normalize('NFC');
  return decoded === written ? [written] : [written, decoded];
}

/** Compiles the patterns of `options` once (invalid ones ignored: the API refuses them first). */
export function createPathPatterns(options: PathPatternOptions): PathPatterns {
  const include = compile(options.includePaths);
  const exclude = compile(options.excludePaths);
  const matches = (patterns: PathPattern[], url: URL, fullUrl: boolean) =>
    patterns.length > 0 && patternTargets(url, fullUrl).some((target) => patterns.some((r) => r.test(target)));
  return {
    excluded: (url, fullUrl = options.regexOnFullURL ?? false) => matches(exclude, url, fullUrl),
    included: (url) => include.length === 0 || matches(include, url, options.regexOnFullURL ?? false),
  };
}

export interface CrawlRules {
  /** Applies the rules of §13.2 in their order. `fromUrl` is the page the link was found on. */
  check(url: string, context?: { fromUrl?: string }): RuleVerdict;
  /**
   * `check`, with the URL parsed and whether it is internal when it is allowed (one parse for robots.txt and the key).
   * `parsed` is the URL to fetch: a fragment that is not a route (`#install`) is dropped from it.
   */
  admit(url: string, context?: { fromUrl?: string }): RuleAdmission;
  /** Same site as the seed (host equal after stripping `www.`). */
  isInternal(url: string): boolean;
  /**
   * Follows the seed's redirect: to another site, that site (and the target's path) becomes the crawl's; on the same
   * site, the target's directory joins the seed's scope, so `/latest` redirected to `/v2/` crawls `/v2/…` too.
   */
  rebase(newSeedUrl: string): void;
}

export function createCrawlRules(options: CrawlRulesOptions): CrawlRules {
  const patterns = createPathPatterns(options);
  const seed = new URL(options.seedUrl);
  let seedHost = siteHostname(seed.hostname);
  let seedDomain = getDomain(seed.hostname) ?? seedHost;
  // The seed's path, and those of its redirect targets on the same site.
  let scopes = [seed.pathname];

  const maxUrlLength = options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  const maxRepeats = options.maxPathSegmentRepeats ?? DEFAULT_MAX_PATH_SEGMENT_REPEATS;
  const internal = (u: URL) => siteHostname(u.hostname) === seedHost;

  return {
    isInternal(url) {
      try {
        return internal(new URL(url));
      } catch {
        return false;
      }
    },
    rebase(newSeedUrl) {
      const target = new URL(newSeedUrl);
      if (internal(target)) {
        if (!scopes.includes(target.pathname)) scopes.push(target.pathname);
        return;
      }
      seedHost = siteHostname(target.hostname);
      seedDomain = getDomain(target.hostname) ?? seedHost;
      scopes = [target.pathname];
    },
    check(url, context) {
      const admission = this.admit(url, context);
      return admission.allowed ? ALLOWED : admission;
    },
    admit(url, context = {}) {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return { allowed: false, reason: 'URL_PARSE_ERROR' };
      }
      if (NON_WEB.has(u.protocol) || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
        return { allowed: false, reason: 'NON_WEB_PROTOCOL' };
      }
      if (isFileUrl(u.pathname)) return { allowed: false, reason: 'FILE_TYPE' };
      // A link to a place in a page (`/install#requirements`) is a link to the page: a docs sidebar may link a page
      // only by its sections. A client-side route (`#/settings`) is a page of its own and keeps its fragment.
      if (u.href.includes('#') && !isRouteFragment(u.hash)) u.hash = '';
      if (u.href.length > maxUrlLength) return { allowed: false, reason: 'URL_TOO_LONG' };
      if (hasRepeatingSegments(u.pathname, maxRepeats)) return { allowed: false, reason: 'REPEATING_PATH' };

      if (internal(u)) {
        if (!options.crawlEntireDomain && !scopes.some((scope) => inSeedScope(scope, u.pathname))) {
          return { allowed: false, reason: 'BACKWARD_CRAWLING' };
        }
        if (patterns.excluded(u)) return { allowed: false, reason: 'EXCLUDE_PATTERN' };
        if (!patterns.included(u)) return { allowed: false, reason: 'INCLUDE_PATTERN' };
        return { allowed: true, parsed: u, internal: true };
      }

      const href = u.href.toLowerCase();
      if (SOCIAL.some((s) => href.includes(s))) return { allowed: false, reason: 'SOCIAL_MEDIA' };
      if (patterns.excluded(u, true)) return { allowed: false, reason: 'EXCLUDE_PATTERN' };
      if (options.allowExternalLinks && u.pathname !== '/' && u.pathname !== '') {
        const from = context.fromUrl;
        if (from === undefined || this.isInternal(from)) return { allowed: true, parsed: u, internal: false };
      }
      if (options.allowSubdomains && (getDomain(u.hostname) ?? siteHostname(u.hostname)) === seedDomain) {
        if (!patterns.included(u)) return { allowed: false, reason: 'INCLUDE_PATTERN' };
        return { allowed: true, parsed: u, internal: false };
      }
      return { allowed: false, reason: 'EXTERNAL_LINK' };
    },
  };
}
