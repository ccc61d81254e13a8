import robotsParserModule from 'robots-parser';

import { isUnavailableStatus, unreadableReason, type FetchText } from './fetch-text.js';

export interface Robots {
  /** Whether the user agent may fetch the URL. URLs of another origin are allowed (their robots.txt is not read). */
  isAllowed(url: string): boolean;
  /** `Crawl-delay` for the user agent, in seconds. */
  crawlDelay(): number | undefined;
  /** `Sitemap:` lines. */
  sitemaps(): string[];
  /**
   * Why the rules are what they are: `parsed`, `missing` (4xx but 429: allow all), `unavailable` (429, 5xx, network
   * failure or timeout: allow all).
   */
  readonly source: 'parsed' | 'missing' | 'unavailable';
  /** Why robots.txt could not be read, when `unavailable`: `answered 503`, or the fetch's error (its code first). */
  readonly unavailable?: string;
  /**
   * Set when robots.txt was larger than `MAX_ROBOTS_BYTES` (500 KiB, Google's limit): the bytes read, its rules
   * those of its lines before; the rest was ignored.
   */
  readonly truncatedAt?: number;
}

interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// robots-parser is CommonJS (`module.exports = fn`) but its typings declare an ES default export.
const robotsParser = robotsParserModule as unknown as (url: string, body: string) => ParsedRobots;

/** Bytes of a robots.txt read: the rest is ignored, as Google ignores what follows its first 500 KiB. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

/**
 * Whether a robots.txt has no `Disallow` rule with a path, read line by line as robots-parser reads it (comments
 * cut, the field before the first `:`, any case). Only such a rule can refuse a URL: without one, every URL is
 * allowed whatever the groups and `Allow` lines say, and no URL needs to be matched.
 */
function refusesNothing(body: string): boolean {
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash === -1 ? raw : raw.slice(0, hash);
    const colon = line.indexOf(':');
    if (colon === -1 || line.slice(0, colon).trim().toLowerCase() !== 'disallow') continue;
    if (line.slice(colon + 1).trim() !== '') return false;
  }
  return true;
}

/** Parses a robots.txt body for an origin. */
export function parseRobots(
  origin: string,
  body: string,
  userAgent: string,
  source: Robots['source'] = 'parsed',
): Robots {
  const text = body.slice(0, MAX_ROBOTS_BYTES);
  const robotsUrl = new URL('/robots.txt', origin).href;
  const robots = robotsParser(robotsUrl, text);
  const agents = [userAgent, 'FireCrawlAgent', 'FirecrawlAgent'];
  const ownOrigin = new URL(origin).origin;
  // A sitemap's URLs are each judged: matched against the rules they cost five URL parses apiece, for nothing when
  // no rule can refuse one (most sites' robots.txt, and a missing or unreachable one).
  const allowsAll = refusesNothing(text);
  return {
    source,
    isAllowed(url) {
      if (allowsAll) return true;
      let matchingOrigin: boolean;
      try {
        matchingOrigin = new URL(url).origin === ownOrigin;
      } catch {
        return true;
      }
      if (!matchingOrigin) return true;
      // Our agent's group (or `*`), and any group written for the upstream crawler's agents, must all allow it.
      return agents.every((agent) => robots.isAllowed(url, agent) !== false);
    },
    crawlDelay() {
      const delays = agents.map((agent) => robots.getCrawlDelay(agent)).filter((d): d is number => d !== undefined);
      return delays.length ? Math.max(...delays) : undefined;
    },
    sitemaps() {
      return robots.getSitemaps();
    },
  };
}

/**
 * Fetches and parses `<origin>/robots.txt`. A missing file (4xx) allows everything; an unreachable one (429, 5xx,
 * network error, no answer within `timeoutMs` (the fetch's own budget by default)) also allows everything, as upstream
 * does, rather than stopping the crawl, and says so and why in `source` and `unavailable`. `signal` ends the wait at
 * once, rejecting.
 */
export async function loadRobots(
  origin: string,
  fetchText: FetchText,
  userAgent: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Robots> {
  try {
    const response = await fetchText(new URL('/robots.txt', origin).href, {
      readAtMost: MAX_ROBOTS_BYTES,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    if (isUnavailableStatus(response.status)) return unavailable(origin, userAgent, unreadableReason(response));
    if (response.status >= 400) return parseRobots(origin, '', userAgent, 'missing');
    const text = response.text ?? new TextDecoder().decode(response.body);
    if (!response.truncated && response.body.length <= MAX_ROBOTS_BYTES) return parseRobots(origin, text, userAgent);
    // The line the cut went through is dropped: half a rule (`Disallow: /` of `Disallow: /private`) is another rule.
    const whole = text.slice(0, MAX_ROBOTS_BYTES);
    const lastBreak = Math.max(whole.lastIndexOf('\n'), whole.lastIndexOf('\r'));
    const robots = parseRobots(origin, whole.slice(0, lastBreak + 1), userAgent);
    return { ...robots, truncatedAt: Math.min(response.body.length, MAX_ROBOTS_BYTES) };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return unavailable(origin, userAgent, unreadableReason({ error }));
  }
}

function unavailable(origin: string, userAgent: string, reason: string): Robots {
  return { ...parseRobots(origin, '', userAgent, 'unavailable'), unavailable: reason };
}
