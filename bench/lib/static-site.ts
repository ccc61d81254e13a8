/**
 * A static file server for crawl benchmarks: serves a folder on 127.0.0.1 (ephemeral port) as a web server would,
 * `index.html` for a directory (a directory asked for without its trailing slash is redirected to it, so relative
 * links resolve as on a real host), a Content-Type from the file's extension, 404 for anything else. Files are read
 * once and kept in memory, so the server's cost is the same for every client of a run. Symbolic links are followed
 * (Debian links some `_static` files into /usr/share/javascript), but a `..` never leaves the folder.
 *
 *   node bench/lib/static-site.ts --root /usr/share/doc/python3.11/html   // serves it, prints `{"url": ...}`
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CONTENT_TYPES } from '../../fixtures/server.ts';

interface Entry {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

function handler(root: string): (req: IncomingMessage, res: ServerResponse) => void {
  const base = realpathSync(resolve(root));
  const cache = new Map<string, Entry>();
  const missing = Buffer.from('<h1>Not found</h1>\n');
  const notFound: Entry = {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-length': missing.length },
    body: missing,
  };
  const lookup = (pathname: string): Entry => {
    let path: string;
    try {
      path = join(base, decodeURIComponent(pathname));
      // A `..` (or `%2F..`) that climbs out of the folder is refused; a symbolic link inside it is followed.
      if (path !== base && !path.startsWith(base + sep)) return notFound;
      path = realpathSync(path);
    } catch {
      return notFound;
    }
    const stat = statSync(path);
    if (stat.isDirectory()) {
      if (!pathname.endsWith('/')) {
        return { status: 301, headers: { location: `${pathname}/`, 'content-length': 0 }, body: Buffer.alloc(0) };
      }
      path = join(path, 'index.html');
      if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return notFound;
    }
    const body = readFileSync(path);
    const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    return { status: 200, headers: { 'content-type': type, 'content-length': body.length }, body };
  };
  return (req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://static.test');
    let entry = cache.get(pathname);
    if (!entry) cache.set(pathname, (entry = lookup(pathname)));
    res.writeHead(entry.status, entry.headers).end(entry.body);
  };
}

/** Serves `root` on 127.0.0.1 (ephemeral port) with a plain HTTP server. */
export async function serveStaticSite(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer({ keepAliveTimeout: 60_000 }, handler(root));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

// `node bench/lib/static-site.ts --root DIR` serves the folder and prints its URL as JSON.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--root');
  const site = await serveStaticSite(i > 0 ? process.argv[i + 1]! : '.');
  process.stdout.write(`${JSON.stringify({ url: site.url })}\n`);
}
