/**
 * A small site of a test's own routes: the fixture server with no static files, so a path the routes do not name
 * answers 404 (robots.txt and sitemaps included, unless given).
 */
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

import { startFixtureServer, type FixtureServer, type RouteHandler, type Routes } from '../../fixtures/server.ts';

export function startRouteSite(routes: Routes): Promise<FixtureServer> {
  return startFixtureServer({ root: join(tmpdir(), 'crawlkit-no-static-files'), routes });
}

/** Answers an HTML page with `title` as its title and heading, `body` inside its `<main>`. */
export function sendPage(res: ServerResponse, title: string, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
  );
}

/**
 * A page the site refuses with 429 (`Retry-After: 0`) on its first request since `reset()`, then serves: what a
 * busy server does to a crawl, which asks again.
 */
export function busyOnce(): { route: RouteHandler; reset(): void; readonly requests: number } {
  let requests = 0;
  return {
    route(_req, res) {
      if (++requests === 1) {
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' });
        res.end('Too many requests, slow down.');
      } else {
        sendPage(res, 'Busy', '<p>The page a busy server answers on the second try.</p>');
      }
    },
    reset: () => (requests = 0),
    get requests() {
      return requests;
    },
  };
}

/** A 1×1 transparent PNG: an image a page loads without asking the network for more. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A route (mount it on `/img/*`) that answers every path with a 1×1 PNG and counts the paths asked since `reset()`:
 * which images a browser page really loaded.
 */
export function countedImages(): { route: RouteHandler; requested(): string[]; reset(): void } {
  const requested = new Set<string>();
  return {
    route(req, res) {
      requested.add(req.url!);
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    },
    /** The paths asked since `reset()`, each once, sorted. */
    requested: () => [...requested].sort(),
    reset: () => requested.clear(),
  };
}
