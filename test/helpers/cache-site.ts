/**
 * The site and engine the page-cache tests share (cache.test.ts, cache-persistence.test.ts). Every page of the
 * `/cache/*` route carries a serial unique to that fetch and the server counts fetches per path, so each test tells a
 * hit from a miss by the server's own log, not only by `metadata.cacheState`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type Document, type ErrorResponse, type ScrapeResponse } from 'crawlkit';
import { afterAll, beforeAll } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';

/** What `useCacheSite` starts before the file's tests. */
export interface CacheSite {
  server: FixtureServer;
  /** An HTTP-only engine on `storeDir`. */
  ck: Crawlkit;
  /** The store directory of `ck`, inside the file's scratch directory. */
  storeDir: string;
}

/**
 * Registers the file's `beforeAll`/`afterAll` that start the site and the engine (handed to `started`) and close
 * them; returns the scratch directory (removed after the file) and the helpers that read the site.
 */
export function useCacheSite(started: (site: CacheSite) => void) {
  let serial = 0;
  let nextPage = 0;
  const root = mkdtempSync(join(tmpdir(), 'ck-cache-'));
  let site: CacheSite | undefined;

  beforeAll(async () => {
    const server = await startFixtureServer({
      routes: {
        '/cache/*': (req, res, ctx) => {
          const n = ++serial;
          const status = ctx.url.searchParams.get('status');
          res.writeHead(status ? Number(status) : 200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(
            `<!doctype html><html lang="en"><head><title>Cached ${ctx.url.pathname}</title>` +
              `<meta name="description" content="A page of the cache test."></head><body>` +
              `<nav><a href="/cache/nav">Navigation link</a></nav><main><h1>Heading of ${ctx.url.pathname}</h1>` +
              `<p>Paragraph one of the cache test page, long enough to count as main content for extraction.</p>` +
              `<p>serial ${n}</p><a href="/cache/other">Other page</a></main><footer>Footer text</footer></body></html>`,
          );
        },
      },
    });
    const storeDir = join(root, 'shared');
    site = { server, storeDir, ck: new Crawlkit({ storeDir, engine: 'http' }) };
    started(site);
  });

  afterAll(async () => {
    await site?.ck.close();
    await site?.server.close();
    rmSync(root, { recursive: true, force: true });
  });

  return {
    root,
    /** A fresh page URL, so that tests do not see each other's cache entries. */
    freshUrl: (): { url: string; path: string } => {
      const path = `/cache/page-${++nextPage}`;
      return { url: `${site!.server.url}${path}`, path };
    },
    fetchesOf: (path: string): number =>
      site!.server.requests.filter((r) => r.path === path || r.path.startsWith(`${path}?`)).length,
  };
}

export function doc(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`unexpected error: ${response.code} ${response.error}`);
  return response.data;
}

export const serialOf = (d: Document) => Number(/serial (\d+)/.exec(d.markdown ?? d.html ?? d.rawHtml ?? '')?.[1]);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
