import { clearTimeout, setTimeout } from 'node:timers';
import type { LookupFunction } from 'node:net';

import type { Browser, BrowserContext, CDPSession, Page } from 'puppeteer-core';

import { FetchError } from '../errors.js';
import type { UrlPolicy } from '../policy/url-policy.js';
import { resolveChromiumPath } from './chromium-path.js';
import type { BrowserError } from './errors.js';
import { isBrowserError } from './errors.js';
import { connectBrowser, describeEndpoint, disconnectBrowser } from './connect.js';
import { destroyBrowser, launchBrowser, type LaunchedBrowser } from './launch.js';
import { NetworkGate, type GateRoute, type SpareProxy } from './network-gate.js';
import { preparePage } from './page-setup.js';
import { DEFAULTS, type BrowserPoolOptions } from './pool-options.js';
import { Semaphore } from './semaphore.js';

export type { BrowserPoolOptions } from './pool-options.js';

/** A page in its own incognito context, set up by `preparePage`; closing the context closes the page. */
export interface IsolatedPage {
  context: BrowserContext;
  page: Page;
  /** The page's CDP session (keep it open: overrides sent through it last as long as it does). */
  session: CDPSession;
  /** Closes the context (and hands its gate listener on, for a spare). Never throws. */
  close(): Promise<void>;
}

/** A spare page: its context's gate listener takes a route when a page takes it. */
interface SparePage extends IsolatedPage {
  proxy: SpareProxy;
}

interface Slot {
  launched: LaunchedBrowser;
  /** Spare pages, each in a fresh context nobody has used; a failed one resolves to undefined. */
  spares: Promise<SparePage | undefined>[];
  pagesServed: number;
  active: number;
  /** Most pages this browser has had open at once: how many spares it keeps while it waits. */
  peakActive: number;
  retiring: boolean;
  dead: boolean;
  destroyed?: Promise<void>;
}

/** One page's hold on a browser. `release()` must be called exactly once. */
export interface BrowserLease {
  browser: Browser;
  /** Chromium's major version. */
  majorVersion: number;
  /** Chromium's user agent with `HeadlessChrome` spelled `Chrome`. */
  userAgent: string;
  /** The `wsEndpoint` the browser was connected through (as messages name it); undefined for a launched one. */
  endpoint?: string;
  /** True once the browser crashed or disconnected. */
  readonly crashed: boolean;
  /**
   * A new page in a new incognito context with downloads denied, whose traffic goes through the network gate and
   * then `route` (the spare page when there is one, whatever the route). The caller closes it (`close()`).
   */
  openPage(route?: GateRoute): Promise<IsolatedPage>;
  release(): Promise<void>;
}

/** What the pool has done, for tests, benchmarks and health checks. */
export interface BrowserPoolStats {
  /** Browsers started so far. */
  launches: number;
  /**
   * Launches or connections that failed so far (`BROWSER_LAUNCH_FAILED`, `BROWSER_CONNECT_FAILED`); pages given a
   * remembered failure are not counted.
   */
  launchFailures: number;
  /** Connections made to `wsEndpoint` so far. */
  connections: number;
  /** Browsers currently running. */
  running: number;
  /** Pages open now. */
  activePages: number;
  /** Requests waiting for a page slot. */
  queued: number;
  /** Spare pages open or opening (`prewarm`), each in a fresh context. */
  sparePages: number;
  /** Pid of every Chromium started, in order. */
  pids: number[];
  /** Temporary profile directory of every Chromium started (their processes carry it on the command line). */
  profiles: string[];
}

/** Where the browser's traffic may go: the URL policy, the resolver and the connect limit the network gate applies. */
export interface BrowserNetwork {
  policy: UrlPolicy;
  lookup?: LookupFunction;
  /**
   * The gate's limit on opening a connection, in milliseconds (`NetworkGateOptions.connectTimeoutMs`).
   * @default 10000
   */
  connectTimeoutMs?: number;
}

/**
 * Flags that send everything Chromium does through the gate: the browser-wide proxy (which refuses all: it carries
 * only Chromium's own background traffic, as every page's context has its own), loopback not bypassed, and WebRTC
 * limited to proxied TCP (TURN over TCP through a CONNECT tunnel; no UDP, no direct host candidates).
 */
function gateFlags(backgroundProxy: string): string[] {
  return [
    `--proxy-server=${backgroundProxy}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

/**
 * One Chromium at a time, shared by every page: started on first use, replaced after `maxPagesPerBrowser` pages
 * or when it crashes or disconnects, closed after `idleTimeoutMs` unused. Every browser it started is killed
 * with its whole process group, and its temporary profile removed, by `close()`.
 */
export class BrowserPool {
  readonly #options: Required<Omit<BrowserPoolOptions, 'executablePath' | 'screenshotDir' | 'wsEndpoint'>> & {
    executablePath?: string;
    wsEndpoint?: string;
  };
  readonly #slots = new Set<Slot>();
  readonly #semaphore: Semaphore;
  /** The only way out of every browser this pool starts. */
  readonly gate: NetworkGate;
  #current: Promise<Slot> | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #launches = 0;
  #launchFailures = 0;
  #connections = 0;
  /** The last launch's failure, given to every page until `launchRetryMs` after it. */
  #failedLaunch: { error: BrowserError; until: number } | undefined;
  readonly #pids: number[] = [];
  readonly #profiles: string[] = [];

  constructor(options: BrowserPoolOptions = {}, network: BrowserNetwork = { policy: {} }) {
    this.gate = new NetworkGate(network);
    this.#options = {
      args: options.args ?? [],
      maxPagesPerBrowser: options.maxPagesPerBrowser ?? DEFAULTS.maxPagesPerBrowser,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
      maxConcurrentPages: options.maxConcurrentPages ?? DEFAULTS.maxConcurrentPages,
      launchTimeoutMs: options.launchTimeoutMs ?? DEFAULTS.launchTimeoutMs,
      launchRetryMs: options.launchRetryMs ?? DEFAULTS.launchRetryMs,
      prewarm: options.prewarm ?? DEFAULTS.prewarm,
      ...(options.executablePath === undefined ? {} : { executablePath: options.executablePath }),
      ...(options.wsEndpoint === undefined ? {} : { wsEndpoint: options.wsEndpoint }),
    };
    this.#semaphore = new Semaphore(this.#options.maxConcurrentPages);
  }

  get stats(): BrowserPoolStats {
    let activePages = 0;
    let running = 0;
    let sparePages = 0;
    for (const slot of this.#slots) {
      activePages += slot.active;
      sparePages += slot.spares.length;
      if (!slot.dead && !slot.destroyed) running++;
    }
    return {
      launches: this.#launches,
      launchFailures: this.#launchFailures,
      connections: this.#connections,
      running,
      activePages,
      queued: this.#semaphore.pending,
      sparePages,
      pids: [...this.#pids],
      profiles: [...this.#profiles],
    };
  }

  /** Pages open at once (`maxConcurrentPages`): a request past them waits for one to close. */
  get maxConcurrentPages(): number {
    return this.#options.maxConcurrentPages;
  }

  /**
   * Waits for a page slot (`onSlot` is called once it has one), then returns the current browser (starting one if
   * needed).
   * @throws BrowserError `BROWSER_NOT_FOUND` / `BROWSER_LAUNCH_FAILED` / `BROWSER_CONNECT_FAILED`; `signal.reason`
   * when it aborts first.
   */
  async acquire(signal?: AbortSignal, onSlot?: () => void): Promise<BrowserLease> {
    this.#assertOpen();
    await this.#semaphore.acquire(signal);
    onSlot?.();
    let slot: Slot;
    try {
      this.#assertOpen();
      clearTimeout(this.#idleTimer);
      slot = await this.#currentSlot();
    } catch (error) {
      this.#semaphore.release();
      throw error;
    }
    slot.active++;
    slot.peakActive = Math.max(slot.peakActive, slot.active);
    slot.pagesServed++;
    if (slot.pagesServed >= this.#options.maxPagesPerBrowser && !slot.launched.connection) this.#retire(slot);
    let released = false;
    return {
      browser: slot.launched.browser,
      majorVersion: slot.launched.majorVersion,
      userAgent: slot.launched.userAgent,
      ...(slot.launched.connection ? { endpoint: describeEndpoint(slot.launched.connection.endpoint) } : {}),
      get crashed() {
        return slot.dead;
      },
      openPage: (proxy) => this.#openPage(slot, proxy),
      release: async () => {
        if (released) return;
        released = true;
        slot.active--;
        this.#semaphore.release();
        if ((slot.retiring || slot.dead) && slot.active === 0) await this.#destroy(slot);
        else this.#prewarm(slot);
        this.#scheduleIdle();
      },
    };
  }

  /** Closes every browser (killing any page still open) and removes the temporary profiles. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    this.#semaphore.rejectAll(new FetchError('FETCHER_CLOSED', 'The fetcher was closed.'));
    const pending = this.#current;
    this.#current = undefined;
    await pending?.catch(() => undefined);
    await Promise.all([...this.#slots].map((slot) => this.#destroy(slot)));
    await this.gate.close();
  }

  async #openPage(slot: Slot, route: GateRoute = {}): Promise<IsolatedPage> {
    // Take a spare synchronously so that concurrent callers never share one.
    const pending = slot.spares.shift();
    this.#prewarm(slot);
    const spare = await pending;
    if (spare && !spare.page.isClosed()) {
      spare.proxy.bind(route);
      return spare;
    }
    await spare?.close();
    return isolatedPage(slot.launched.browser, await this.gate.contextProxy(route));
  }

  /**
   * Tops up the spare pages of `slot` (unless it is on its way out): one while all the pages it has run at once are
   * open, more as they close, so that a burst of requests after a quiet spell finds a page ready for each.
   */
  #prewarm(slot: Slot): void {
    if (!this.#options.prewarm || slot.retiring || slot.dead || this.#closed) return;
    const wanted = Math.max(1, Math.min(slot.peakActive, this.#options.maxConcurrentPages) - slot.active);
    while (slot.spares.length < wanted) {
      slot.spares.push(
        this.gate
          .spareProxy()
          .then((proxy) =>
            isolatedPage(slot.launched.browser, proxy.url, proxy.release).then(
              (page) => ({ ...page, proxy }),
              (error: unknown) => {
                proxy.release();
                throw error;
              },
            ),
          )
          .catch(() => undefined),
      );
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new FetchError('FETCHER_CLOSED', 'The fetcher was closed.');
  }

  #currentSlot(): Promise<Slot> {
    if (this.#failedLaunch && !this.#current) {
      if (performance.now() < this.#failedLaunch.until) return Promise.reject(this.#failedLaunch.error);
      this.#failedLaunch = undefined;
    }
    this.#current ??= this.#launch().catch((error: unknown) => {
      this.#current = undefined;
      if (
        isBrowserError(error) &&
        (error.code === 'BROWSER_LAUNCH_FAILED' || error.code === 'BROWSER_CONNECT_FAILED')
      ) {
        this.#launchFailures++;
        this.#failedLaunch = { error, until: performance.now() + this.#options.launchRetryMs };
      }
      throw error;
    });
    return this.#current;
  }

  async #start(): Promise<LaunchedBrowser> {
    const { wsEndpoint, launchTimeoutMs } = this.#options;
    if (wsEndpoint !== undefined) {
      const connected = await connectBrowser(wsEndpoint, launchTimeoutMs);
      this.#connections++;
      return connected;
    }
    const launched = await launchBrowser({
      executablePath: resolveChromiumPath(this.#options.executablePath),
      // After the user's flags: a `--proxy-server` of theirs must not replace the gate (the last one wins).
      args: [...this.#options.args, ...gateFlags(await this.gate.backgroundProxy())],
      timeoutMs: launchTimeoutMs,
    });
    this.#launches++;
    if (launched.pid !== undefined) this.#pids.push(launched.pid);
    this.#profiles.push(launched.userDataDir);
    return launched;
  }

  async #launch(): Promise<Slot> {
    const launched = await this.#start();
    const slot: Slot = { launched, spares: [], pagesServed: 0, active: 0, peakActive: 0, retiring: false, dead: false };
    this.#slots.add(slot);
    launched.browser.once('disconnected', () => {
      slot.dead = true;
      this.#retire(slot);
      // Clean up the process group and profile even while pages still hold it: they fail on their own.
      void this.#destroy(slot);
    });
    if (this.#closed) {
      await this.#destroy(slot);
      throw new FetchError('FETCHER_CLOSED', 'The fetcher was closed.');
    }
    return slot;
  }

  /** Stops handing out `slot`; it is destroyed when its last page is released. */
  #retire(slot: Slot): void {
    slot.retiring = true;
    if (this.#current) {
      const current = this.#current;
      void current.then(
        (s) => {
          if (s === slot && this.#current === current) this.#current = undefined;
        },
        () => undefined,
      );
    }
  }

  #destroy(slot: Slot): Promise<void> {
    const end = slot.launched.connection ? disconnectBrowser : destroyBrowser;
    slot.destroyed ??= end(slot.launched).finally(() => {
      this.#slots.delete(slot);
      // Their contexts went with the browser (or the connection's own contexts were closed): the listeners are free.
      for (const spare of slot.spares.splice(0)) void spare.then((page) => page?.proxy.release());
    });
    return slot.destroyed;
  }

  #scheduleIdle(): void {
    clearTimeout(this.#idleTimer);
    if (this.#closed) return;
    for (const slot of this.#slots) if (slot.active > 0) return;
    this.#idleTimer = setTimeout(() => {
      const pending = this.#current;
      this.#current = undefined;
      void pending?.then(
        (slot) => (slot.active === 0 ? this.#destroy(slot) : this.#retire(slot)),
        () => undefined,
      );
    }, this.#options.idleTimeoutMs);
    this.#idleTimer.unref();
  }
}

/** A page in a new context whose proxy is `proxyServer`; `closed` is called once its context is closed. */
async function isolatedPage(browser: Browser, proxyServer: string, closed?: () => void): Promise<IsolatedPage> {
  const context = await browser.createBrowserContext({
    downloadBehavior: { policy: 'deny' },
    proxyServer,
    // Chromium bypasses proxies for loopback by default; `<-loopback>` removes that rule (and link-local's).
    proxyBypassList: ['<-loopback>'],
  });
  try {
    const page = await context.newPage();
    const close = async () => {
      await context.close().catch(() => undefined);
      closed?.();
    };
    return { context, page, session: await preparePage(page), close };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}
