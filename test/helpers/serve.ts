/**
 * A real `@crawlkit/server` over a real engine (a SQLite store in a temporary directory) and the fixture site, for
 * the server tests: the official SDK and raw HTTP talk to it on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer, type CrawlkitServer, type ServerOptions } from '@crawlkit/server';
import { Crawlkit, type CrawlkitOptions } from 'crawlkit';

import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import { slowRoutes } from '../helpers-batch.ts';

export interface ServeStack {
  ck: Crawlkit;
  server: CrawlkitServer;
  site: FixtureServer;
  /** The engine's store directory. */
  dir: string;
  /** A URL of the fixture site. */
  page(path: string): string;
  close(): Promise<void>;
}

export async function startServeStack(
  options: { crawlkit?: CrawlkitOptions; server?: Omit<ServerOptions, 'crawlkit'> } = {},
): Promise<ServeStack> {
  const site = await startFixtureServer({ routes: slowRoutes().routes });
  const dir = mkdtempSync(join(tmpdir(), 'ck-serve-'));
  const ck = new Crawlkit({ storeDir: dir, engine: 'http', ...options.crawlkit });
  const server = await startServer({ port: 0, ...options.server, crawlkit: ck });
  return {
    ck,
    server,
    site,
    dir,
    page: (path) => `${site.url}${path}`,
    close: async () => {
      await server.close();
      await ck.close();
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
