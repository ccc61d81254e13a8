import type { BrowserPoolOptions, BrowserPoolStats } from './browser/browser-pool.js';
import type { SmartWaitSettings } from './browser/smart-wait.js';
import { countryProfile, type CountryProfile } from './browser/countries.js';
import { blockedReason, browserOnlyFeatures, chooseEngine } from './engine-choice.js';
import { AutoEngine, isBrowserUnavailable } from './engines/auto-engine.js';
import { HttpPageEngine } from './engines/http-page-engine.js';
import { judgePage } from './engines/judging.js';
import { LazyBrowserEngine } from './engines/lazy-browser-engine.js';
import type { Attempt, PageEngine } from './engines/page-engine.js';
import { FetchError } from './errors.js';
import { fetcherOptionsSchema } from './options.js';
import { InvalidOptionError, parseOptions } from '@crawlkit/options';
import { DEFAULT_TIMEOUT_MS, HttpEngine } from './http/http-engine.js';
import type { FetchResult, HttpEngineOptions, HttpRequest } from './http/types.js';
import type { EngineName, PageRequest, PageResult } from './page.js';
import type { UrlPolicy } from './policy/url-policy.js';
import { ProxyRotation, type ProxyConfig } from './proxy-choice.js';
import { judgeRendering, type RenderJudge, type RenderVerdict } from './render/judge.js';
import { slotWaitsMoving } from './slot-wait.js';

export { NOT_SETTLED_WARNING } from './engines/not-settled.js';

export type { EngineName, PageRequest, PageResult, ProxyMode } from './page.js';

/** Settings of a `Fetcher`. */
export interface FetcherOptions {
  /**
   * Engine for every request unless a request forces its own.
   * @default 'auto'
   */
  engine?: EngineName | (string & {});
  /** HTTP engine settings (limits, user agent, DNS lookup). Its `urlPolicy` is replaced by the one below when set. */
  http?: HttpEngineOptions;
  /** Browser settings: Chromium path and flags, pool sizes, smart wait, capture directory, filter lists. */
  browser?: BrowserOptions;
  /** Proxy servers for `proxy: basic | stealth | auto` and `location.country`. */
  proxies?: ProxyConfig;
  /**
   * Which URLs and addresses may be fetched, by both engines (the browser checks every request it makes).
   * @default the `http.urlPolicy`, else everything allowed
   */
  urlPolicy?: UrlPolicy;
  /**
   * Let `proxy: 'auto'` retry with stealth when the site refuses (403, challenge page; 429 only through a stealth
   * proxy, i.e. from another address).
   * @default true
   */
  autoStealth?: boolean;
  /**
   * Decides whether a page fetched over HTTP needs the browser (in `auto`), and whether a page served over HTTP looks
   * client-rendered. It must be a function of the page alone (it may run on another thread).
   * @default judgeRendering
   */
  renderJudge?: RenderJudge;
  /**
   * More engines, chosen by a request's `engine` by their names (a cache-only engine, a replay engine). Their names
   * must differ from `auto`, `http` and `browser`. The fetcher closes them with its own.
   * @default []
   */
  engines?: readonly PageEngine[];
}

/** Browser settings of `FetcherOptions`. */
export interface BrowserOptions extends BrowserPoolOptions {
  /**
   * Longest the smart wait (network idle and DOM idle) waits for a page to settle, in milliseconds; a page that
   * never settles is captured as it is then, with a `warnings` entry that says so (`NOT_SETTLED_WARNING`).
   * @default 10000
   */
  smartWaitMaxMs?: number;
  /**
   * Quiet periods of the smart wait, in milliseconds: `networkIdleMs` (no request in flight, default 500),
   * `networkQuietMs` (at most two long-lived requests and no activity, default 1500), `domIdleMs` (no DOM mutation,
   * default 300), `pollMs` (default 100).
   * @default {}
   */
  smartWait?: SmartWaitSettings;
  /**
   * Adblock Plus / uBlock filter list files that replace the default list (Ghostery's tracker database:
   * advertising, analytics and consent-manager domains) for `blockAds`.
   * @default undefined (the default list)
   */
  adblockLists?: string[];
}

/**
 * The page fetcher: chooses HTTP or the browser per request (and says why), applies proxies and `proxy: 'auto'`'s
 * stealth retry, and owns the browser pool.
 */
export class Fetcher {
  readonly #engine: string;
  readonly #http: HttpEngine;
  readonly #browser: LazyBrowserEngine;
  readonly #engines = new Map<string, PageEngine>();
  readonly #proxies: ProxyRotation;
  readonly #autoStealth: boolean;
  readonly #policy: UrlPolicy;
  readonly #judge: RenderJudge;
  #closed = false;

  /** @throws {InvalidOptionError} naming every bad option (an unknown key, a wrong type, a value out of range). */
  constructor(input: FetcherOptions = {}) {
    const options = parseOptions(fetcherOptionsSchema, input, 'new Fetcher()') as FetcherOptions;
    this.#engine = options.engine ?? 'auto';
    const policy = options.urlPolicy ?? options.http?.urlPolicy ?? {};
    this.#policy = policy;
    this.#http = new HttpEngine({ ...options.http, urlPolicy: policy });
    this.#proxies = new ProxyRotation(options.proxies);
    this.#autoStealth = options.autoStealth ?? true;
    this.#judge = options.renderJudge ?? judgeRendering;
    const http = new HttpPageEngine(this.#http);
    // The browser's modules load with its first page: an HTTP fetch never loads them.
    const browser = new LazyBrowserEngine({
      pool: options.browser,
      network: {
        policy,
        connectTimeoutMs: this.#http.limits.connectTimeoutMs,
        ...(options.http?.lookup ? { lookup: options.http.lookup } : {}),
      },
      engine: {
        download: http,
        proxyLoopback: options.proxies?.proxyLoopback ?? false,
        settings: {
          policy,
          smartWaitMaxMs: options.browser?.smartWaitMaxMs ?? 10_000,
          maxContentChars: this.#http.limits.maxBodyBytes,
          maxRedirects: this.#http.limits.maxRedirects,
          ...(options.browser?.screenshotDir ? { screenshotDir: options.browser.screenshotDir } : {}),
          ...(options.browser?.adblockLists ? { adblockLists: options.browser.adblockLists } : {}),
          ...(options.browser?.smartWait ? { smartWait: options.browser.smartWait } : {}),
        },
      },
    });
    this.#browser = browser;
    for (const engine of options.engines ?? []) engine.bind?.({ browser });
    for (const engine of [http, browser, new AutoEngine(http, browser, this.#judge), ...(options.engines ?? [])]) {
      if (this.#engines.has(engine.name)) {
        throw new InvalidOptionError(`Invalid options of new Fetcher(): two engines are named \`${engine.name}\`.`);
      }
      this.#engines.set(engine.name, engine);
    }
  }

  /** The HTTP engine behind `fetch()`: plain requests (robots, sitemaps, webhooks) share its connection pools. */
  get http(): HttpEngine {
    return this.#http;
  }

  /** The URL policy both engines apply (for callers that list URLs without fetching them, like `map`). */
  get urlPolicy(): Readonly<UrlPolicy> {
    return this.#policy;
  }

  /** Whether `proxies.stealth` lists any proxy: without one, a stealth page is served and billed as `basic`. */
  get stealthProxies(): boolean {
    return this.#proxies.hasStealth;
  }

  /** The browser pool's counters (launches, pids, profiles, pages open). */
  get browserStats(): BrowserPoolStats {
    return this.#browser.stats;
  }

  /**
   * Fetches one page with the engine the request needs (`chooseEngine`).
   * @throws FetchError (network, policy, timeout, abort, invalid request, unknown engine), BrowserError (browser
   * needed but unavailable, crash, site error), ActionError (failing action).
   */
  async fetch<V extends RenderVerdict = RenderVerdict>(request: PageRequest<V>): Promise<PageResult<V>> {
    if (this.#closed) throw new FetchError('FETCHER_CLOSED', 'This fetcher is closed.');
    const country = this.#country(request);
    const mode = request.proxy === 'enhanced' ? 'stealth' : (request.proxy ?? 'auto');
    // One budget for every attempt (HTTP, its browser retry, the stealth retry): each gets what is left, less the
    // waits for a browser page whose clock the caller keeps (`browserSlot`).
    const budget = { at: performance.now() + (request.timeoutMs ?? DEFAULT_TIMEOUT_MS) };
    if (request.browserSlot) request = { ...request, browserSlot: slotWaitsMoving(request.browserSlot, budget) };

    const firstPlan = this.#plan(mode === 'stealth' ? 'stealth' : 'basic', country);
    const first = await this.#attempt(request, budget.at, country, firstPlan);
    if (mode !== 'auto' || !this.#autoStealth) return first;
    const blocked = blockedReason(first);
    if (!blocked) return first;
    const retry = this.#plan('stealth', country);
    // A rate limit is about the address: asking again at once from the same one only adds to the site's load.
    if (blocked === 'blocked:429' && retry.proxy === firstPlan.proxy) return first;
    try {
      const second = await this.#attempt(request, budget.at, country, retry, blocked);
      return blockedReason(second) ? first : second;
    } catch (error) {
      if (isBrowserUnavailable(error)) return first;
      throw error;
    }
  }

  /**
   * A plain HTTP request (robots.txt, sitemaps, link discovery) through the same proxies as the pages' basic
   * attempts (`proxies.basic`, in rotation; `request.proxy` wins), under the same URL policy. When the fetcher's
   * `engine` is one of `engines` that answers plain requests itself (replay), it answers them.
   */
  fetchPlain(request: HttpRequest): Promise<FetchResult> {
    if (this.#closed) return Promise.reject(new FetchError('FETCHER_CLOSED', 'This fetcher is closed.'));
    const configured = this.#engines.get(this.#engine);
    if (configured?.fetchPlain) return configured.fetchPlain(request, this.#policy);
    const proxy = request.proxy ?? this.#proxies.pick('basic');
    return this.#http.fetch(proxy ? { ...request, proxy } : request);
  }

  /** Closes the HTTP connection pools, every browser (no Chromium process survives it) and every engine. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([this.#http.close(), ...[...this.#engines.values()].map((engine) => engine.close())]);
  }

  #country(request: PageRequest<RenderVerdict>): CountryProfile | undefined {
    const code = request.location?.country;
    if (code === undefined) return undefined;
    const profile = countryProfile(code);
    if (!profile) {
      throw new FetchError(
        'SCRAPE_INVALID_REQUEST',
        'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.',
        { url: request.url },
      );
    }
    return profile;
  }

  #plan(mode: 'basic' | 'stealth', country: CountryProfile | undefined): Attempt {
    return { mode, proxy: this.#proxies.pick(mode, country?.code) };
  }

  async #attempt<V extends RenderVerdict>(
    request: PageRequest<V>,
    deadline: number,
    country: CountryProfile | undefined,
    attempt: Attempt,
    blocked?: string,
  ): Promise<PageResult<V>> {
    const choice = chooseEngine(request, this.#engine, attempt.mode, blocked);
    const engine = this.#engines.get(choice.engine);
    if (!engine) {
      throw new FetchError(
        'SCRAPE_INVALID_REQUEST',
        `No engine is named \`${choice.engine}\`: use one of ${[...this.#engines.keys()].join(', ')}.`,
        { url: request.url },
      );
    }
    const result = await engine.fetch({
      request,
      deadline,
      attempt,
      country,
      reason: choice.reason,
      urlPolicy: this.#policy,
    });
    const shortfall = this.#proxies.shortfall(attempt.mode, country?.code, attempt.proxy);
    if (shortfall) result.warnings = [...(result.warnings ?? []), shortfall];
    // `proxyUsed` names the proxy the page went through, and a stealth page costs 4 more (reference §18, "unless
    // stealth was unsupported"): evasions without a stealth proxy (none configured, or a country's) are basic.
    if (result.proxyUsed === 'stealth' && !this.#proxies.isStealth(attempt.proxy)) result.proxyUsed = 'basic';
    if (!engine.renders) {
      const unsupported = browserOnlyFeatures(request);
      if (unsupported.length) result.unsupportedFeatures = unsupported;
    }
    // A page served over plain HTTP as asked: whether it looks client-rendered (its content may be missing).
    if (choice.engine === 'http') {
      const jsReason = (await judgePage(request, result, this.#judge, false)).reason;
      if (jsReason) result.clientRendered = jsReason;
    }
    return result;
  }
}
