import { setImmediate } from 'node:timers';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

import { lazyRequire } from '@crawlkit/options/lazy-module';
import { siteHostname } from '@crawlkit/options/site-host';
import type * as Htmlparser2 from 'htmlparser2';

import { isUnavailableStatus, unreadableReason, type FetchText } from './fetch-text.js';
import type { Robots } from './robots.js';
import { decodeSitemap } from './sitemap-encoding.js';
import { scanSitemapXml, type SitemapEntryHandler } from './sitemap-scan.js';

export interface SitemapDocument {
  /** Page URLs listed (`<url><loc>` or text lines). */
  urls: string[];
  /** Nested sitemaps (`<sitemap><loc>` of an index). */
  sitemaps: string[];
  /**
   * `<lastmod>` of each page URL in epoch milliseconds, `lastmod[i]` for `urls[i]`, NaN where the sitemap gives none
   * (or none valid); absent when no URL has one. A typed array crosses from a worker thread as one copy of bytes,
   * where an object keyed by 100,000 URLs took the receiving event loop a quarter of a second to rebuild under load.
   */
  lastmod?: Float64Array;
}

/** What the sitemaps of a site list: page URLs, and when each page last changed where they say it. */
export interface SitemapListing {
  urls: string[];
  /** `<lastmod>` per page URL, in epoch milliseconds (W3C datetime; a date alone is midnight UTC). */
  lastmod: Map<string, number>;
  /**
   * Sitemaps that could not be read (429, 5xx, a network failure, a timeout, a body past the limits), with why
   * (`unreadableReason`). A missing one (another 4xx) is not listed: most candidates do not exist.
   */
  unreadable: { url: string; reason: string }[];
}

export interface DiscoverSitemapOptions {
  fetchText: FetchText;
  /** robots.txt of the seed's origin: its `Sitemap:` lines are candidates. */
  robots?: Robots;
  /** Sitemap documents fetched at most. @default 20 */
  maxSitemaps?: number;
  /** URLs returned at most. @default 100000 */
  maxUrls?: number;
  /** Decompressed size of one sitemap at most, in bytes. @default 50 MiB (the sitemap protocol's limit) */
  maxBytes?: number;
  /**
   * Reads each fetched sitemap (decompress, decode, parse: up to `maxBytes` of XML, a second or more of CPU). An
   * engine passes one that runs off its event loop.
   * @default `readSitemap` on the calling thread
   */
  readSitemap?: SitemapReader;
  signal?: AbortSignal;
}

/** What to read of one fetched sitemap: its bytes, their decompressed limit, and how many page URLs to keep. */
export interface SitemapBody {
  /** Where the sitemap was fetched from. */
  url: string;
  body: Uint8Array;
  maxBytes: number;
  maxUrls: number;
}

/** Reads a fetched sitemap into its document; `undefined` when it is an HTML page (a soft 404), not a sitemap. */
export type SitemapReader = (sitemap: SitemapBody, signal?: AbortSignal) => Promise<SitemapDocument | undefined>;

const MAX_BYTES = 50 * 1024 * 1024;

const require = createRequire(import.meta.url);
/** htmlparser2, loaded by the first sitemap the scan leaves to it: its 25 modules are no part of a start-up. */
const htmlparser2 = lazyRequire(() => require('htmlparser2') as typeof Htmlparser2);
/** URLs handled between two turns of the event loop. */
const URLS_PER_TURN = 5_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Parses a sitemap, a sitemap index or a text sitemap (one URL a line), keeping the first `maxUrls` page URLs. */
export function parseSitemap(text: string, maxUrls = Infinity): SitemapDocument {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('<')) {
    const urls = trimmed
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^https?:\/\//i.test(l));
    return { urls: urls.length > maxUrls ? urls.slice(0, maxUrls) : urls, sitemaps: [] };
  }
  const scanned = new SitemapCollector(maxUrls);
  if (scanSitemapXml(trimmed, scanned)) return scanned.document();
  return parseSitemapXml(text, maxUrls);
}

/** An XML sitemap read by htmlparser2: what `scanSitemapXml` leaves, and the reference its tests compare it with. */
export function parseSitemapXml(text: string, maxUrls = Infinity): SitemapDocument {
  const parsed = new SitemapCollector(maxUrls);
  const parser = new (htmlparser2().Parser)(
    {
      onopentag: (name) => parsed.open(name.toLowerCase().replace(/^.*:/, '')),
      ontext: (data) => parsed.text(data),
      onclosetag: () => parsed.close(),
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  return parsed.document();
}

/**
 * The entries of a sitemap as its elements open, hold text and close (`<url>`/`<sitemap>` with `<loc>`, `<lastmod>`).
 */
class SitemapCollector implements SitemapEntryHandler {
  readonly #maxUrls: number;
  readonly #urls: string[] = [];
  readonly #sitemaps: string[] = [];
  readonly #lastmod: number[] = [];
  #dated = false;
  readonly #stack: string[] = [];
  #captured = '';
  #entry: { loc?: string; lastmod?: number } = {};

  constructor(maxUrls: number) {
    this.#maxUrls = maxUrls;
  }

  open(local: string): void {
    this.#stack.push(local);
    if (local === 'loc' || local === 'lastmod') this.#captured = '';
    if (local === 'url' || local === 'sitemap') this.#entry = {};
  }

  text(data: string): void {
    const top = this.#stack[this.#stack.length - 1];
    if (top === 'loc' || top === 'lastmod') this.#captured += data;
  }

  close(): void {
    const local = this.#stack.pop();
    const parent = this.#stack[this.#stack.length - 1];
    const own = parent === 'url' || parent === 'sitemap';
    const value = this.#captured.trim();
    const entry = this.#entry;
    // `<image:loc>` and the like belong to an extension element, not to the entry.
    if (local === 'loc' && own && value) entry.loc = value;
    else if (local === 'lastmod' && own && value) {
      const at = Date.parse(value);
      if (!Number.isNaN(at)) entry.lastmod = at;
    } else if (local === 'sitemap' && entry.loc) this.#sitemaps.push(entry.loc);
    else if (local === 'url' && entry.loc && this.#urls.length < this.#maxUrls) {
      this.#urls.push(entry.loc);
      this.#lastmod.push(entry.lastmod ?? Number.NaN);
      if (entry.lastmod !== undefined) this.#dated = true;
    }
  }

  document(): SitemapDocument {
    const urls = this.#urls;
    const sitemaps = this.#sitemaps;
    return this.#dated ? { urls, sitemaps, lastmod: Float64Array.from(this.#lastmod) } : { urls, sitemaps };
  }
}

/** Decompresses (gzip), decodes and parses a fetched sitemap; `undefined` for an HTML page (a soft 404). */
export function readSitemap({ body, maxBytes, maxUrls }: SitemapBody): SitemapDocument | undefined {
  const text = decode(body, maxBytes);
  if (/^\s*<(!doctype\s+)?html/i.test(text)) return undefined;
  return parseSitemap(text, maxUrls);
}

const readHere: SitemapReader = (sitemap) => Promise.resolve(readSitemap(sitemap));

function decode(body: Uint8Array, maxBytes: number): string {
  const gz = body.length > 2 && body[0] === 0x1f && body[1] === 0x8b;
  const bytes = gz ? gunzipSync(body, { maxOutputLength: maxBytes }) : body;
  return decodeSitemap(bytes);
}

const sameSite = (a: string, b: string) => siteHostname(a) === siteHostname(b);

/** Sitemap locations to try for a seed: robots.txt `Sitemap:` lines, then the usual places. */
export function sitemapCandidates(seedUrl: string, robots?: Robots): string[] {
  const seed = new URL(seedUrl);
  if (/\.xml(\.gz)?$/i.test(seed.pathname)) return [seed.href];
  const out = [...(robots?.sitemaps() ?? [])];
  const dir = seed.pathname.endsWith('/') ? seed.pathname : seed.pathname.replace(/\/[^/]*$/, '/');
  if (dir !== '/') out.push(new URL(`${dir}sitemap.xml`, seed).href);
  if (seed.pathname !== '/' && !seed.pathname.endsWith('/'))
    out.push(new URL(`${seed.pathname}/sitemap.xml`, seed).href);
  out.push(new URL('/sitemap.xml', seed).href);
  return [...new Set(out)];
}

/**
 * Every page URL the seed's sitemaps list: robots.txt `Sitemap:` lines, `<seed dir>/sitemap.xml` and
 * `/sitemap.xml`, following sitemap indexes, gzipped and text sitemaps. Sitemaps on a host that differs from the
 * seed's only by `www.` or scheme count as the same site; others are skipped.
 */
export async function discoverSitemapUrls(seedUrl: string, options: DiscoverSitemapOptions): Promise<string[]> {
  return (await discoverSitemaps(seedUrl, options)).urls;
}

/** What `discoverSitemapUrls` finds, with each page's `<lastmod>` where its sitemap gives one. */
export async function discoverSitemaps(seedUrl: string, options: DiscoverSitemapOptions): Promise<SitemapListing> {
  const seedHost = new URL(seedUrl).hostname;
  const maxSitemaps = options.maxSitemaps ?? 20;
  const maxUrls = options.maxUrls ?? 100_000;
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const read = options.readSitemap ?? readHere;
  const queue = sitemapCandidates(seedUrl, options.robots);
  const fetched = new Set<string>();
  const urls = new Set<string>();
  const lastmod = new Map<string, number>();
  const unreadable: SitemapListing['unreadable'] = [];

  while (queue.length && fetched.size < maxSitemaps && urls.size < maxUrls) {
    options.signal?.throwIfAborted();
    const location = queue.shift()!;
    if (fetched.has(location)) continue;
    let host: string;
    try {
      host = new URL(location).hostname;
    } catch {
      continue;
    }
    if (!sameSite(host, seedHost)) continue;
    fetched.add(location);
    let doc: SitemapDocument | undefined;
    try {
      const response = await options.fetchText(location, options.signal ? { signal: options.signal } : {});
      if (isUnavailableStatus(response.status)) unreadable.push({ url: location, reason: unreadableReason(response) });
      if (response.status >= 400) continue;
      doc = await read({ url: location, body: response.body, maxBytes, maxUrls: maxUrls - urls.size }, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      unreadable.push({ url: location, reason: unreadableReason({ error }) });
      continue;
    }
    if (!doc) continue;
    queue.push(...doc.sitemaps);
    for (let i = 0; i < doc.urls.length && urls.size < maxUrls; i++) {
      const url = doc.urls[i]!;
      urls.add(url);
      const modified = doc.lastmod?.[i];
      if (modified !== undefined && !Number.isNaN(modified)) lastmod.set(url, modified);
      // A sitemap lists up to 50,000 URLs (100,000 kept): timers and other pages run between slices of them.
      if (i % URLS_PER_TURN === URLS_PER_TURN - 1) await nextTurn();
    }
  }
  return { urls: [...urls], lastmod, unreadable };
}
