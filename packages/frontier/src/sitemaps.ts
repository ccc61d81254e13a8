import { gunzipSync } from 'node:zlib';

import { Parser } from 'htmlparser2';

import type { FetchText } from './fetch-text.js';
import type { Robots } from './robots.js';

export interface SitemapDocument {
  /** Page URLs listed (`<url><loc>` or text lines). */
  urls: string[];
  /** Nested sitemaps (`<sitemap><loc>` of an index). */
  sitemaps: string[];
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
  signal?: AbortSignal;
}

const MAX_BYTES = 50 * 1024 * 1024;

/** Parses a sitemap, a sitemap index or a text sitemap (one URL a line). */
export function parseSitemap(text: string): SitemapDocument {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('<')) {
    const urls = trimmed
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^https?:\/\//i.test(l));
    return { urls, sitemaps: [] };
  }
  const urls: string[] = [];
  const sitemaps: string[] = [];
  const stack: string[] = [];
  let loc = '';
  const parser = new Parser(
    {
      onopentag(name) {
        const local = name.toLowerCase().replace(/^.*:/, '');
        stack.push(local);
        if (local === 'loc') loc = '';
      },
      ontext(data) {
        if (stack[stack.length - 1] === 'loc') loc += data;
      },
      onclosetag() {
        const local = stack.pop();
        if (local !== 'loc') return;
        const parent = stack[stack.length - 1];
        const value = loc.trim();
        if (!value) return;
        if (parent === 'sitemap') sitemaps.push(value);
        else if (parent === 'url') urls.push(value);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  return { urls, sitemaps };
}

function decode(body: Uint8Array, maxBytes: number): string {
  const gz = body.length > 2 && body[0] === 0x1f && body[1] === 0x8b;
  const bytes = gz ? gunzipSync(body, { maxOutputLength: maxBytes }) : body;
  return new TextDecoder().decode(bytes);
}

const sameSite = (a: string, b: string) => a.replace(/^www\./, '') === b.replace(/^www\./, '');

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
  const seedHost = new URL(seedUrl).hostname;
  const maxSitemaps = options.maxSitemaps ?? 20;
  const maxUrls = options.maxUrls ?? 100_000;
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const queue = sitemapCandidates(seedUrl, options.robots);
  const fetched = new Set<string>();
  const urls = new Set<string>();

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
    let text: string;
    try {
      const response = await options.fetchText(location, options.signal ? { signal: options.signal } : {});
      if (response.status >= 400) continue;
      text = decode(response.body, maxBytes);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      continue;
    }
    if (/^\s*<(!doctype\s+)?html/i.test(text)) continue; // a soft 404 page, not a sitemap
    const doc = parseSitemap(text);
    queue.push(...doc.sitemaps);
    for (const url of doc.urls) {
      if (urls.size >= maxUrls) break;
      urls.add(url);
    }
  }
  return [...urls];
}
