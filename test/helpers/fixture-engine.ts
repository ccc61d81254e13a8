// The site-plus-engine pair most end-to-end tests start before their tests and close after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type CrawlkitOptions } from 'crawlkit';
import { afterAll, beforeAll } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';

interface Closable {
  close(): Promise<void>;
}

export interface FixtureEngineOptions<S extends Closable> {
  /**
   * Starts the site the tests fetch from.
   * @default startFixtureServer() (the fixture site and every route module)
   */
  server?: () => Promise<S>;
  /**
   * The engine's options. A function is given a new temporary directory (for `storeDir`), removed after the tests.
   * @default { store: 'memory', engine: 'http' }
   */
  crawlkit?: CrawlkitOptions | ((dir: string) => CrawlkitOptions);
}

/** The file's site and engine; read them inside tests and hooks (they exist once `beforeAll` has run). */
export interface FixtureEngine<S> {
  readonly server: S;
  readonly ck: Crawlkit;
}

/**
 * Registers a `beforeAll` that starts the site and the engine and an `afterAll` that closes the engine, then the site,
 * then removes the temporary store directory, if any.
 */
export function useFixtureEngine<S extends Closable = FixtureServer>(
  options: FixtureEngineOptions<S> = {},
): FixtureEngine<S> {
  let server: S | undefined;
  let ck: Crawlkit | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    server = await (options.server ?? (startFixtureServer as unknown as () => Promise<S>))();
    const config = options.crawlkit ?? { store: 'memory', engine: 'http' };
    if (typeof config === 'function') dir = mkdtempSync(join(tmpdir(), 'ck-test-'));
    ck = new Crawlkit(typeof config === 'function' ? config(dir!) : config);
  });
  afterAll(async () => {
    await ck?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`useFixtureEngine: the ${name} is read before beforeAll ran.`);
    return value;
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get ck() {
      return started(ck, 'engine');
    },
  };
}

/** The fixture site alone, for files whose describes each build their own engine; read it inside tests and hooks. */
export function useFixtureServer(): { readonly server: FixtureServer } {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('useFixtureServer: the server is read before beforeAll ran.');
      return server;
    },
  };
}
