// A static HTTP server for benchmarks: serves in-memory pages on 127.0.0.1 with an ephemeral port, nothing else
// (no logging, no request list), so that it costs every client the same and grows no memory over a run.
import { createServer } from 'node:http';

import { listenOnLoopback, type LoopbackServer } from '../../fixtures/loopback-listen.ts';

/** Base URL (e.g. `http://127.0.0.1:41234`) and a close that drops open connections first. */
export type PageServer = LoopbackServer;

/** Serves `pages` (path such as `/0001.html` → HTML) as `text/html; charset=utf-8` with a Content-Length. */
export async function startPageServer(pages: ReadonlyMap<string, string>): Promise<PageServer> {
  const bodies = new Map([...pages].map(([path, html]) => [path, Buffer.from(html, 'utf8')]));
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    // The query string is ignored: a benchmark can ask for the same page under a new URL (a cache miss).
    const body = bodies.get((req.url ?? '').split('?')[0]!);
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain', 'content-length': 9 }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  return listenOnLoopback(server);
}
