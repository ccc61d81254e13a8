// The site-plus-engine pair most end-to-end tests start before their tests and close after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type CrawlkitOptions } from 'crawlkit';
import { afterAll, beforeAll } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import { sharedBrowserEndpoint } from '../setup/shared-browser.ts';
import { ISOLATED_ARGS } from './scrape.ts';

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

/** Options only a launch honours: an engine given one of them launches its own Chromium. */
const LAUNCH_ONLY = ['executablePath', 'args', 'maxPagesPerBrowser', 'wsEndpoint'] as const;

/**
 * `options` with `browser.wsEndpoint` set to the run's shared Chromium (test/setup/shared-browser.ts) when the engine
 * may use a browser and nothing in them needs a launch of its own (`args` of `ISOLATED_ARGS` alone do not: the shared
 * browser starts with them); otherwise (and outside such a run) unchanged, with `launchArgs` as `browser.args` when
 * given.
 */
export async function withSharedBrowser(options: CrawlkitOptions, launchArgs?: string[]): Promise<CrawlkitOptions> {
  const launching = () => (launchArgs ? { ...options, browser: { ...options.browser, args: launchArgs } } : options);
  const { args, ...browser } = (options.browser ?? {}) as Record<string, unknown>;
  const isolatedOnly = args === undefined || (Array.isArray(args) && args.join('\n') === ISOLATED_ARGS.join('\n'));
  if (options.engine === 'http' || !isolatedOnly || LAUNCH_ONLY.some((key) => browser[key] !== undefined)) {
    return launching();
  }
  const wsEndpoint = await sharedBrowserEndpoint();
  return wsEndpoint === undefined ? launching() : { ...options, browser: { ...browser, wsEndpoint } };
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
    const resolved = typeof config === 'function' ? config(dir!) : config;
    // Connected to the run's shared Chromium when the options allow it (a file about the launch passes launch options).
    ck = new Crawlkit(await withSharedBrowser(resolved));
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
