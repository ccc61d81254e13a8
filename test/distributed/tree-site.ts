/**
 * A generated site for the distributed tests and bench: `<prefix>/<n>` for n in 1..size links to `<prefix>/<2n>`
 * and `<prefix>/<2n+1>` (prefix `/tree` by default) (a binary tree, so every page is reachable from `/tree/1`), with a paragraph of text. Every hit is
 * recorded with its arrival time, so tests can check "each page once" and the spacing of requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Routes } from '../../fixtures/server.ts';

export interface TreeHit {
  path: string;
  at: number;
}

export interface TreeSite {
  routes: Routes;
  hits: TreeHit[];
  /** Page paths of the tree, `/tree/1` .. `/tree/<size>`. */
  paths(): string[];
  /** The most requests the site has served at once. */
  maxInFlight(): number;
}

export function treeSite(size: number, options: { latencyMs?: number; prefix?: string } = {}): TreeSite {
  const base = options.prefix ?? '/tree';
  const hits: TreeHit[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const handler = async (req: IncomingMessage, res: ServerResponse, ctx: { url: URL }) => {
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    try {
      await answer(req, res, ctx);
    } finally {
      // Counted down as soon as the answer is written, not on the response's later 'close' event.
      inFlight--;
    }
  };
  const answer = async (req: IncomingMessage, res: ServerResponse, ctx: { url: URL }) => {
    const n = Number(ctx.url.pathname.slice(base.length + 1));
    hits.push({ path: ctx.url.pathname, at: performance.timeOrigin + performance.now() });
    if (!Number.isInteger(n) || n < 1 || n > size) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    const links = [2 * n, 2 * n + 1]
      .filter((c) => c <= size)
      .map((c) => `<li><a href="${base}/${c}">Page ${c}</a></li>`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1>` +
        `<p>This is page number ${n} of a generated tree used to test distributed crawling. It has enough text ` +
        `to be treated as content by the extractor, and links to its two children.</p><ul>${links}</ul>` +
        `</main></body></html>`,
    );
    void req;
  };
  return {
    routes: { [`${base}/*`]: handler },
    hits,
    paths: () => Array.from({ length: size }, (_, i) => `${base}/${i + 1}`),
    maxInFlight: () => maxInFlight,
  };
}
