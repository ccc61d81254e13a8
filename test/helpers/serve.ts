/**
 * A real `@crawlkit/server` over a real engine (a SQLite store in a temporary directory) and the fixture site, for
 * the server tests: the official SDK and raw HTTP talk to it on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer, type CrawlkitServer, type ServerOptions } from '@crawlkit/server';
import { Crawlkit, type CrawlkitOptions } from 'crawlkit';

import { startFixtureServer, type FixtureServer, type Routes } from '../../fixtures/server.ts';
import { slowRoutes } from '../helpers-batch.ts';

export interface ServeStack {
  ck: Crawlkit;
  server: CrawlkitServer;
  site: FixtureServer;
  /** The engine's store directory. */
  dir: string;
  /** The server's log lines (`level message`). */
  log: string[];
  /** A URL of the fixture site. */
  page(path: string): string;
  /** Answers the requests of a `/held/<name>` page, which wait until then (before or after they arrive). */
  release(path: string): void;
  close(): Promise<void>;
}

export async function startServeStack(
  options: { crawlkit?: CrawlkitOptions; server?: Omit<ServerOptions, 'crawlkit'> } = {},
): Promise<ServeStack> {
  const gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  const gate = (path: string) => {
    let entry = gates.get(path);
    if (!entry) {
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      entry = { opened, open };
      gates.set(path, entry);
    }
    return entry;
  };
  const routes: Routes = {
    ...slowRoutes().routes,
    // A page that answers when the test says so: a job stays running for as long as the test needs, whatever the load.
    '/held/*': (_req, res, ctx) => {
      void gate(ctx.url.pathname).opened.then(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html><head><title>Held ${ctx.url.pathname}</title></head><body><main>` +
            `<h1>Held page</h1><p>This page answered when the test released it, which it says in a sentence.</p>` +
            `</main></body></html>`,
        );
      });
    },
  };
  const site = await startFixtureServer({ routes });
  const dir = mkdtempSync(join(tmpdir(), 'ck-serve-'));
  const ck = new Crawlkit({ storeDir: dir, engine: 'http', ...options.crawlkit });
  const log: string[] = [];
  const record = (level: string) => (message: string) => void log.push(`${level} ${message}`);
  const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  const server = await startServer({ port: 0, logger, ...options.server, crawlkit: ck });
  return {
    ck,
    server,
    site,
    dir,
    log,
    page: (path) => `${site.url}${path}`,
    release: (path) => gate(path).open(),
    close: async () => {
      for (const entry of gates.values()) entry.open();
      await server.close();
      await ck.close();
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
