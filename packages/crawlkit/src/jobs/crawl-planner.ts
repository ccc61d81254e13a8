import { redactUrl } from '@crawlkit/fetcher';
import type { JobRecord, Store, Task, TaskInput } from '@crawlkit/store';
import {
  createCrawlRules,
  discoverSitemaps,
  HostPoliteness,
  loadRobots,
  normalizeParsedUrl,
  normalizeUrl,
  type Robots,
} from '@crawlkit/frontier';

import type { EngineContext } from '../context.js';
import type { PageScrapeOutcome } from '../scrape/types.js';
import type { CrawlRequest } from '../v2/jobs.js';
import type { JobPlanner } from './planner.js';
import { sitemapReader } from '../extraction/sitemap-reader.js';
import { landedOnSignIn, sendTheSession } from '../scrape/sign-in-redirect.js';
import { nextTurn } from '../next-turn.js';
import { crawlPageOptions, seedCredentials } from './crawl-credentials.js';
import { frontierFetch, robotsUnavailableReason, type RobotsWait } from './frontier-fetch.js';
import {
  noteFrontier,
  noteSignInRedirect,
  noteTrapsSkipped,
  seedLanding,
  TRAP_REASONS,
  type FrontierNotes,
} from './crawl-notes.js';
import { refusedSeedPath, SEED_PATH_REFUSED } from './pattern-note.js';
import { foldsByContent } from './content-fold.js';

export const CRAWLER_USER_AGENT = 'crawlkit';
/** URLs checked between two turns of the event loop. */
const URLS_PER_TURN = 2_000;
/**
 * Link URLs whose verdict a crawl remembers (about 200 bytes each): a docs site links every page to the same few
 * hundred pages, so most links are ones the crawl has judged before. Past this many the memo starts again.
 */
const LINK_VERDICTS = 20_000;

/** A link the crawl follows: its key, and the URL fetched for it. */
interface Admitted {
  key: string;
  url: string;
}

/** The crawl's de-duplication key of a URL. */
export function crawlKey(url: string, request: KeyRequest): string {
  return normalizeUrl(url, keyOptions(request));
}

type KeyRequest = Pick<CrawlRequest, 'ignoreQueryParameters' | 'deduplicateSimilarURLs'>;

const keyOptions = (request: KeyRequest) => ({
  ignoreQueryParameters: request.ignoreQueryParameters,
  foldSimilar: request.deduplicateSimilarURLs,
});

/**
 * Crawl discovery for the generic runner: the seed, sitemaps and robots.txt at the start, then the links of every
 * page through the crawl rules of the request, with per-host politeness (`delay`, robots `Crawl-delay`).
 */
export function createCrawlPlanner(
  ctx: EngineContext,
  store: Store,
  job: JobRecord,
  request: CrawlRequest,
): JobPlanner {
  // A recrawl asks for robots.txt and sitemaps again conditionally, unless the crawl keeps nothing.
  const pageOptionsFor = crawlPageOptions(request.url, request.scrapeOptions);
  const fetchText = frontierFetch(ctx, {
    revalidate: !request.zeroDataRetention && request.scrapeOptions.storeInCache,
    headersFor: (url) => pageOptionsFor(url).headers,
    skipTlsVerification: request.scrapeOptions.skipTlsVerification,
  });
  const rules = createCrawlRules({
    seedUrl: request.url,
    includePaths: request.includePaths,
    excludePaths: request.excludePaths,
    crawlEntireDomain: request.crawlEntireDomain,
    allowExternalLinks: request.allowExternalLinks,
    allowSubdomains: request.allowSubdomains,
    regexOnFullURL: request.regexOnFullURL,
  });
  // Where the seed led, shared by every planner of the job through its stored job.
  const landing = seedLanding(store, job, rules);
  const politeness = new HostPoliteness({ ...(request.delay !== undefined ? { delayMs: request.delay * 1000 } : {}) });
  let robots: Robots | undefined;
  const userAgent = request.robotsUserAgent ?? CRAWLER_USER_AGENT;
  const keys = keyOptions(request);
  const key = (url: string) => normalizeUrl(url, keys);
  const seedKey = key(request.url);
  // `delay` makes the crawl sequential, as upstream does.
  const concurrency =
    request.delay !== undefined
      ? 1
      : Math.min(request.maxConcurrency ?? ctx.options.concurrency, ctx.options.concurrency);
  const depthAllowsLinks = (depth: number) =>
    request.sitemap !== 'only' && (request.maxDiscoveryDepth === undefined || depth < request.maxDiscoveryDepth);
  // Keys of redirect targets already stored under the URL that redirected: links to them are not followed and a
  // second page redirected to them is not stored again. Kept in memory: after a resume a duplicate is possible, never
  // a lost page. A `rel=canonical` claims nothing here: its page is fetched, and compared (`foldsByContent`).
  const aliasKeys = new Set<string>();
  // Blocked URLs already recorded: a link on every page is written to the store once.
  const robotsBlocked = new Set<string>();
  // Pages whose sitemap `<lastmod>` is older than `modifiedSince`: not crawled, whether listed or linked.
  const unmodified = new Set<string>();
  const modifiedSince = request.modifiedSince !== undefined ? Date.parse(request.modifiedSince) : undefined;

  /** Whether `k` is already a page of this crawl (queued, done, or stored under another URL); claims it if not. */
  async function claimRedirect(k: string): Promise<boolean> {
    if (aliasKeys.has(k)) return true;
    aliasKeys.add(k);
    return store.tasks.has(job.id, k);
  }

  // The key and the URL to fetch of each link URL the rules and robots.txt admitted, null for one they refused.
  // Neither depends on the page the link is on (external links do, with allowExternalLinks: then nothing is
  // remembered), nor changes during the crawl, except when the seed redirects (`rules.rebase`, `landing`), which
  // empties it.
  const withSeedCredentials = seedCredentials(request.url);
  const verdicts = request.allowExternalLinks ? undefined : new Map<string, Admitted | null>();
  // The first link each trap rule refused (and the first refused on the seed's own path), told once to the stored
  // job (`trapsSkipped`) for the status.
  const trapsNoted = new Set<string>();
  const trapsSkipped: { reason: string; url: string }[] = [];
  // The seed, for the links its patterns refused on its own path (`refusedSeedPath`).
  const seed = URL.parse(request.url);
  // Whether this planner told the stored job of a page that landed on a sign-in page (`signInRedirected`).
  let signInNoted = false;

  /**
   * The crawl key of `url` and the URL to fetch (a section's fragment dropped) when the rules and robots.txt admit it;
   * null when they refuse it. A URL robots.txt refuses is added to `blocked` the first time (to be recorded in the
   * job's results).
   */
  function judge(url: string, fromUrl: string, blocked: string[]): Admitted | null {
    const known = verdicts?.get(url);
    if (known !== undefined) return known;
    let verdict: Admitted | null = null;
    // One parse of the URL for the rules, robots.txt's scope and the key (a sitemap's hundreds of URLs, cold).
    const admission = rules.admit(url, { fromUrl });
    if (!admission.allowed) {
      const noted = TRAP_REASONS.has(admission.reason)
        ? admission.reason
        : seed && refusedSeedPath(seed, url, admission.reason)
          ? SEED_PATH_REFUSED
          : undefined;
      if (noted !== undefined && !trapsNoted.has(noted)) {
        trapsNoted.add(noted);
        trapsSkipped.push({ reason: noted, url });
      }
    }
    if (admission.allowed) {
      // The URL as a browser writes it (`parsed.href`: a section's fragment dropped, a sitemap's raw `/ニュース/記事`
      // or `例え.jp` percent-encoded and in punycode), so that a page's `sourceURL` and a robots.txt refusal name a
      // URL in one form, whether a link or a sitemap gave it.
      withSeedCredentials(admission.parsed);
      const fetched = admission.parsed.href;
      if (!request.ignoreRobotsTxt && robots && admission.internal && !robots.isAllowed(fetched)) {
        if (!robotsBlocked.has(fetched)) {
          robotsBlocked.add(fetched);
          blocked.push(fetched);
        }
      } else {
        verdict = { key: normalizeParsedUrl(url, admission.parsed, keys), url: fetched };
      }
    }
    if (verdicts) {
      if (verdicts.size >= LINK_VERDICTS) verdicts.clear();
      verdicts.set(url, verdict);
    }
    return verdict;
  }

  async function admit(urls: Iterable<string>, fromUrl: string, depth: number): Promise<TaskInput[]> {
    const tasks: TaskInput[] = [];
    const blocked: string[] = [];
    const seen = new Set<string>();
    let checked = 0;
    for (const url of urls) {
      // A sitemap gives up to 100,000 URLs: timers and other pages run between slices of them.
      if (++checked % URLS_PER_TURN === 0) await nextTurn();
      const admitted = judge(url, fromUrl, blocked);
      if (admitted === null) continue;
      const k = admitted.key;
      if (seen.has(k) || aliasKeys.has(k) || (unmodified.has(k) && k !== seedKey)) continue;
      seen.add(k);
      tasks.push({ key: k, url: admitted.url, depth });
    }
    for (const url of blocked) await store.results.addRobotsBlocked(job.id, url);
    if (trapsSkipped.length) await noteTrapsSkipped(store, job.id, trapsSkipped.splice(0));
    return tasks;
  }

  return {
    scrapeOptions: request.scrapeOptions,
    scrapeOptionsFor: pageOptionsFor,
    concurrency,
    collectsLinks: request.sitemap !== 'only',
    hashesContent: true,
    zeroDataRetention: request.zeroDataRetention,
    limit: request.limit,
    politeness,

    async prepare(signal, options) {
      // lockdown: no network at all. The crawl goes where the links of cached pages lead; robots.txt and sitemaps
      // are not fetched.
      if (request.scrapeOptions.lockdown) return [];
      const discover = request.sitemap !== 'skip' && options?.discover !== false;
      if (request.ignoreRobotsTxt && !discover) return [];
      // robots.txt is read even when ignored: its `Sitemap:` lines still name the site's sitemaps.
      const wait = robotsWait(ctx, request);
      // The seed's URL, not its origin: robots.txt of a site behind Basic auth is read with the seed's user info.
      const loaded = await loadRobots(request.url, fetchText, userAgent, { signal, timeoutMs: wait.ms });
      const notes: FrontierNotes = {};
      if (!request.ignoreRobotsTxt) {
        if (loaded.unavailable !== undefined) {
          notes.robotsUnavailable = robotsUnavailableReason(loaded.unavailable, wait);
        }
        if (loaded.truncatedAt !== undefined) notes.robotsTruncatedAt = loaded.truncatedAt;
        robots = loaded;
        const crawlDelay = robots.crawlDelay();
        if (crawlDelay !== undefined) politeness.setHostDelay(new URL(request.url).host, crawlDelay * 1000);
      }
      if (!discover) {
        if (options?.discover !== false) await noteFrontier(store, job.id, notes);
        return [];
      }
      const { urls, lastmod, unreadable } = await discoverSitemaps(request.url, {
        fetchText,
        readSitemap: sitemapReader(ctx.extraction),
        robots: loaded,
        signal,
      }).catch(() => ({ urls: [], lastmod: new Map<string, number>(), unreadable: [] }));
      if (unreadable.length) notes.sitemapsUnreadable = unreadable;
      await noteFrontier(store, job.id, notes);
      if (modifiedSince !== undefined) {
        for (const [url, at] of lastmod) if (at < modifiedSince) unmodified.add(key(url));
      }
      return admit(urls, request.url, 0);
    },

    refuses(task: Task) {
      if (task.key !== seedKey || request.ignoreRobotsTxt || !robots || robots.isAllowed(task.url)) return false;
      if (robotsBlocked.has(task.url)) return true;
      robotsBlocked.add(task.url);
      return store.results
        .addRobotsBlocked(job.id, task.url)
        .then(() => landing.land(task.url))
        .then(() => true);
    },

    async afterPage(task: Task, outcome: PageScrapeOutcome, links: string[]) {
      if (!outcome.success) {
        if (task.key === seedKey) await landing.land(task.url);
        return { tasks: [] };
      }
      // Every page after the seed is judged by the scope the seed's landing set, whichever planner fetched the seed.
      if (task.key !== seedKey && !landing.known && (await landing.learn())) verdicts?.clear();
      const finalUrl = outcome.document.metadata.url ?? task.url;
      // A task's key is its URL's (`admit`): a page that did not move needs no second normalisation.
      const finalKey = finalUrl === task.url ? task.key : key(finalUrl);
      let duplicate = false;
      // The seed is never refused for its redirect (upstream): the crawl follows it, to another host or into another
      // directory of the site (`/latest` → `/v2/`), and judges links anew. Written before its links are queued.
      if (task.key === seedKey) await landing.land(finalUrl);
      // A page past the seed that landed on a sign-in page naming it (a session run out, a page it may not read) is
      // not the page: stored, the crawl kept the sign-in page under every such URL and followed its links.
      if (finalKey !== task.key && task.key !== seedKey && landedOnSignIn(task.url, finalUrl)) {
        if (!signInNoted) {
          signInNoted = true;
          await noteSignInRedirect(store, job.id, task.url);
        }
        return {
          tasks: [],
          reject: {
            code: 'CRAWL_SIGN_IN_REDIRECT',
            error:
              `Redirected to a sign-in page (${redactUrl(finalUrl)}): the session did not reach this page. ` +
              sendTheSession('crawl'),
          },
        };
      }
      if (finalKey !== task.key) {
        if (task.key === seedKey) {
          verdicts?.clear();
          duplicate = await claimRedirect(finalKey);
        } else {
          // The target is judged as a link is: by the rules, then by robots.txt (obeyed unless ignored).
          const verdict = rules.check(finalUrl);
          const reason = !verdict.allowed
            ? verdict.reason
            : robots !== undefined && !robots.isAllowed(finalUrl)
              ? 'ROBOTS_TXT'
              : undefined;
          if (reason !== undefined) {
            return {
              tasks: [],
              reject: {
                code: 'CRAWL_DENIAL',
                // Where it went: a closed job posting sent to its listing, an article moved off the crawl's path.
                error: `Redirected target URL is not allowed by crawlOptions (${reason}): it redirected to ${redactUrl(finalUrl)}`,
              },
            };
          }
          duplicate = await claimRedirect(finalKey);
        }
      }
      // A page whose canonical URL is another page of the crawl, and whose main content is that page's, is that page:
      // stored once (a page 2 naming page 1, a CMS naming its home on every page: other text, kept).
      const canonical = outcome.canonical;
      if (!duplicate && canonical !== undefined && rules.isInternal(canonical)) {
        const canonicalKey = key(canonical);
        duplicate = await foldsByContent(store, job.id, {
          taskKey: task.key,
          // A page naming itself records its text under the key it landed on.
          canonicalKey: canonicalKey === task.key ? finalKey : canonicalKey,
          hash: outcome.foldHash ?? outcome.contentHash,
        });
      }
      // The seed is always fetched for its links, but kept only when the patterns admit it.
      const seedVerdict = task.key === seedKey ? rules.check(task.url) : undefined;
      const discard =
        duplicate ||
        (seedVerdict !== undefined &&
          !seedVerdict.allowed &&
          (seedVerdict.reason === 'INCLUDE_PATTERN' || seedVerdict.reason === 'EXCLUDE_PATTERN'));
      const tasks = depthAllowsLinks(task.depth) && links.length ? await admit(links, finalUrl, task.depth + 1) : [];
      return discard ? { tasks, discard } : { tasks };
    },
  };
}

/** How long the crawl waits for its robots.txt, and the option that says so (the shorter of the two). */
function robotsWait(ctx: EngineContext, request: CrawlRequest): RobotsWait {
  const pageTimeout = request.scrapeOptions.timeout;
  return pageTimeout !== undefined && pageTimeout < ctx.options.robotsTimeoutMs
    ? { ms: pageTimeout, option: "the crawl's `scrapeOptions.timeout`" }
    : { ms: ctx.options.robotsTimeoutMs, option: "the engine's `robotsTimeoutMs`" };
}
