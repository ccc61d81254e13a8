import { decodeText, redactUrl, type FetchResult } from '@crawlkit/fetcher';
import type { FetchText, SitemapListing } from '@crawlkit/frontier';
import type { Store } from '@crawlkit/store';

import { frontierFileCodec } from '../codec/records.js';
import type { EngineContext } from '../context.js';
import { recorder } from '../record/job-recording.js';
import { afterNotModified, cachePolicyOf, conditionalHeaders } from '../scrape/revalidation.js';

type FrontierFile = ReturnType<typeof frontierFileCodec.decode>;

/** What a crawl's status and a map's warning say of the sitemaps they could not read, one sentence each. */
export function unreadableSitemapNotes(unreadable: SitemapListing['unreadable']): string[] {
  return unreadable.map(({ url, reason }) => `The sitemap ${redactUrl(url)} could not be read (${reason}).`);
}

/** How long a crawl or map waits for robots.txt, and the option that set the wait (its warning names it). */
export interface RobotsWait {
  ms: number;
  option: string;
}

/** Why robots.txt could not be read, as a warning says it: a timeout names its wait and the option that set it. */
export function robotsUnavailableReason(unavailable: string, wait: RobotsWait): string {
  return unavailable === `SCRAPE_TIMEOUT: Scrape timed out after ${wait.ms} ms`
    ? `no answer within ${wait.ms} ms, ${wait.option}`
    : unavailable;
}

/** What the robots.txt left unread costs a crawl (its rules) and a map (the sitemaps its `Sitemap:` lines name). */
const ROBOTS_UNREAD = {
  crawl: {
    unavailable: 'the crawl went on as if it allowed every page, as the hosted service does',
    truncated: 'its rules were read from its first %d bytes and the rest was ignored, as Google ignores it',
  },
  map: {
    unavailable: 'the map went on without the sitemaps it may name',
    truncated: 'its first %d bytes were read and the sitemaps named past them were not',
  },
};

/**
 * What a crawl's status and a map's warning say of a robots.txt they could not read (`unavailable`, the reason from
 * `robotsUnavailableReason`) or read only in part (`truncatedAt` bytes), one sentence each.
 */
export function robotsNotes(
  robotsUrl: string,
  robots: { unavailable?: string | undefined; truncatedAt?: number | undefined },
  reader: keyof typeof ROBOTS_UNREAD,
): string[] {
  const url = redactUrl(robotsUrl);
  const notes: string[] = [];
  if (robots.unavailable !== undefined) {
    notes.push(`${url} could not be read (${robots.unavailable}): ${ROBOTS_UNREAD[reader].unavailable}.`);
  }
  if (robots.truncatedAt !== undefined) {
    const cost = ROBOTS_UNREAD[reader].truncated.replace('%d', String(robots.truncatedAt));
    notes.push(`${url} is larger than 500 KiB: ${cost}.`);
  }
  return notes;
}

/** How long a sitemap (or a robots.txt, unless its fetch says otherwise) may take. */
const TIMEOUT_MS = 15_000;

/** A frontier file's entry in the page cache: apart from every page's, whose key starts with its URL. */
const keyOf = (url: string) => `frontier|${url}`;

export interface FrontierFetchOptions {
  /**
   * Keep robots.txt and sitemaps that carry validators (`ETag`, `Last-Modified`) in the page cache, and ask for them
   * again conditionally: the next crawl or map of the site gets `304 Not Modified` for the files that did not change
   * instead of their whole bodies. Never under a recording (it keeps what the site sent) or the replay engine.
   * @default false
   */
  revalidate?: boolean;
  /**
   * The request headers of a URL: a crawl's `scrapeOptions.headers` for the files of the seed's host (a site behind a
   * cookie or a token keeps its robots.txt and sitemaps behind it too). A file fetched with them is never kept.
   * @default none
   */
  headersFor?: (url: string) => Record<string, string> | undefined;
  /**
   * The crawl's `skipTlsVerification`: its robots.txt and sitemaps are fetched as its pages are, so the headers a
   * crawl verifies certificates for are never sent to a server that was not verified.
   * @default true (v2's default)
   */
  skipTlsVerification?: boolean;
}

/** What a frontier fetch answers: the response, its text decoded when asked for (only robots.txt asks). */
function answer(
  response: Pick<FetchResult, 'url' | 'status' | 'contentType' | 'body' | 'text' | 'truncated'>,
  decoding: { declaredCharset?: string; contentLanguage?: string } | undefined,
): Awaited<ReturnType<FetchText>> {
  let text = response.text;
  return {
    url: response.url,
    status: response.status,
    contentType: response.contentType,
    body: response.body,
    ...(response.truncated ? { truncated: true } : {}),
    get text() {
      if (text === undefined && decoding) {
        text = decodeText(response.body, response.contentType, decoding.declaredCharset, decoding.contentLanguage).text;
      }
      return text;
    },
  };
}

/** The kept copy of a frontier file, or undefined (none, or unreadable: it is then fetched as if none). */
async function readKept(store: Store, key: string): Promise<{ file: FrontierFile; body: Uint8Array } | undefined> {
  try {
    const entry = await store.pages.get(key);
    if (!entry?.body) return undefined;
    return { file: frontierFileCodec.decode(entry.value), body: entry.body };
  } catch {
    return undefined;
  }
}

/**
 * Writes are best effort: a store that fails here fails the crawl's own writes too, where it is reported; robots.txt
 * must not read as unavailable (allowing everything) because its copy could not be kept.
 */
async function quietly(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch {
    // see above
  }
}

/** Frontier fetches (robots.txt, sitemaps) over the engine's plain HTTP, under its URL policy and limits. */
export function frontierFetch(ctx: EngineContext, options: FrontierFetchOptions = {}): FetchText {
  const keeps = options.revalidate === true && !ctx.recording && ctx.options.engine !== 'replay';
  return async (url, init) => {
    const own = options.headersFor?.(url);
    // A URL with credentials is never kept: the key would hold them. Nor is a file fetched with the crawl's headers.
    const key = keeps && !own && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url) ? keyOf(url) : undefined;
    const kept = key ? await readKept(ctx.store, key) : undefined;
    const fetch = (conditional?: Record<string, string>) => {
      const headers = own || conditional ? { ...own, ...conditional } : undefined;
      return (
        // Through the pages' proxy: robots.txt and sitemaps must come from where the pages come from.
        ctx.fetcher.fetchPlain({
          url,
          timeoutMs: init?.timeoutMs ?? TIMEOUT_MS,
          // A sitemap is read from its bytes: only robots.txt asks for the text, decoded when it does.
          deferDecoding: true,
          ...(headers ? { headers } : {}),
          ...(options.skipTlsVerification !== undefined ? { skipTlsVerification: options.skipTlsVerification } : {}),
          ...(init?.signal ? { signal: init.signal } : {}),
          ...(init?.readAtMost !== undefined ? { readAtMost: init.readAtMost } : {}),
          ...(ctx.recording ? { onExchange: recorder(ctx.recording) } : {}),
        })
      );
    };
    let result = await fetch(kept ? conditionalHeaders(kept.file.policy, url) : undefined);
    if (kept && result.status === 304) {
      // Compared with the URL the kept file was fetched at: a redirect that stays is confirmed where it leads.
      const after = afterNotModified(kept.file.policy, kept.file.url, result);
      if (after.confirmed) {
        const { file, body } = kept;
        const now = Date.now();
        const touched = (await ctx.store.pages.touch?.(key!, now).catch(() => false)) ?? false;
        if (!touched) await quietly(() => keep(ctx.store, key!, url, { ...file, policy: after.policy }, body, now));
        return answer({ url: file.url, status: 200, contentType: file.contentType, body }, file);
      }
      result = await fetch();
    }
    // A cut file is not kept: its next read would answer the cut body as whole.
    const policy = key && result.status === 200 && !result.truncated ? cachePolicyOf({ ...result, url }) : undefined;
    if (policy) {
      const file: FrontierFile = { url: result.url, contentType: result.contentType, policy };
      if (result.undecodedText?.declaredCharset) file.declaredCharset = result.undecodedText.declaredCharset;
      if (result.undecodedText?.contentLanguage) file.contentLanguage = result.undecodedText.contentLanguage;
      await quietly(() => keep(ctx.store, key!, url, file, result.body, Date.now()));
    }
    return answer(result, result.undecodedText);
  };
}

function keep(store: Store, key: string, url: string, file: FrontierFile, body: Uint8Array, now: number) {
  return store.pages.put({ key, url, cachedAt: now, value: frontierFileCodec.encode(file), body });
}
