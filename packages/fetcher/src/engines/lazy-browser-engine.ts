/**
 * The `browser` engine as the fetcher holds it: its modules (the pool, the launcher and puppeteer's glue, the network
 * gate, smart wait, page actions, cookie banners, ad blocking) load with its first page, not with the fetcher, so that
 * a process whose pages all go over HTTP never loads them (docs/decisions.md, "Lazy loading").
 */
import { lazyModule } from '@crawlkit/options/lazy-module';

import type { BrowserNetwork, BrowserPool, BrowserPoolOptions, BrowserPoolStats } from '../browser/browser-pool.js';
import type { PageResult } from '../page.js';
import type { RenderVerdict } from '../render/judge.js';
import type { BrowserPageEngine, BrowserPageEngineOptions } from './browser-page-engine.js';
import type { EngineCall, PageEngine } from './page-engine.js';

/** The browser engine's modules: one load for every fetcher of the process. */
const browserModules = lazyModule(async () => {
  const [{ BrowserPool }, { BrowserPageEngine }] = await Promise.all([
    import('../browser/browser-pool.js'),
    import('./browser-page-engine.js'),
  ]);
  return { BrowserPool, BrowserPageEngine };
});

/** What the engine and its pool are built from, at its first page. */
export interface LazyBrowserSettings {
  /** The pool's options. @default the pool's defaults */
  pool?: BrowserPoolOptions | undefined;
  /** The pool's network gate: the URL policy, the DNS lookup, the connect limit. */
  network: BrowserNetwork;
  /** The engine's own settings, less the pool. */
  engine: Omit<BrowserPageEngineOptions, 'pool'>;
}

/** A pool that has started nothing: what `browserStats` reads before the first browser page. */
const UNUSED: BrowserPoolStats = {
  launches: 0,
  launchFailures: 0,
  connections: 0,
  running: 0,
  activePages: 0,
  queued: 0,
  sparePages: 0,
  pids: [],
  profiles: [],
};

export class LazyBrowserEngine implements PageEngine {
  readonly name = 'browser';
  readonly renders = true;
  readonly #settings: LazyBrowserSettings;
  #built: Promise<{ pool: BrowserPool; engine: BrowserPageEngine }> | undefined;
  #pool: BrowserPool | undefined;
  #closed = false;

  constructor(settings: LazyBrowserSettings) {
    this.#settings = settings;
  }

  /** The pool's counters; all zero until the first browser page. */
  get stats(): BrowserPoolStats {
    return this.#pool?.stats ?? { ...UNUSED, pids: [], profiles: [] };
  }

  async fetch<V extends RenderVerdict>(call: EngineCall<V>): Promise<PageResult<V>> {
    const { engine } = await this.#build();
    return engine.fetch(call);
  }

  /** Closes every browser: no Chromium process survives it. A page that comes after finds its pool closed. */
  async close(): Promise<void> {
    this.#closed = true;
    const built = await this.#built?.catch(() => undefined);
    await built?.engine.close();
  }

  #build(): Promise<{ pool: BrowserPool; engine: BrowserPageEngine }> {
    if (this.#built) return this.#built;
    const built = browserModules().then(async ({ BrowserPool, BrowserPageEngine }) => {
      const pool = new BrowserPool(this.#settings.pool, this.#settings.network);
      this.#pool = pool;
      // Built after close() (for a page that was under way): closed at once, so that it launches nothing.
      if (this.#closed) await pool.close();
      return { pool, engine: new BrowserPageEngine({ ...this.#settings.engine, pool }) };
    });
    this.#built = built;
    // A failed load is not kept: the next page tries again.
    built.catch(() => {
      if (this.#built === built) this.#built = undefined;
    });
    return built;
  }
}
