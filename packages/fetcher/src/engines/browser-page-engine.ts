import { BrowserEngine, type BrowserEngineSettings, type BrowserFetchRequest } from '../browser/browser-engine.js';
import { isBrowserError } from '../browser/errors.js';
import type { BrowserPool } from '../browser/browser-pool.js';
import { browserOnlyFeatures } from '../engine-choice.js';
import { DEFAULT_TIMEOUT_MS } from '../http/http-engine.js';
import type { PageResult } from '../page.js';
import { showsEmptyShell, type RenderVerdict } from '../render/judge.js';
import { emptyShellWarning, NOT_SETTLED_WARNING } from './not-settled.js';
import { remaining, type EngineCall, type PageEngine } from './page-engine.js';

/** What the browser engine is built from. */
export interface BrowserPageEngineOptions {
  pool: BrowserPool;
  settings: BrowserEngineSettings;
  /** The engine that fetches a download instead. */
  download: PageEngine;
  /** Send loopback requests through the proxy too. */
  proxyLoopback: boolean;
}

/**
 * Pages in pooled Chromium: navigation, smart wait, actions, screenshot. A navigation that turns into a download (a
 * PDF served as an attachment) is fetched again over HTTP by `download`, with `engineReason: 'download'`.
 */
export class BrowserPageEngine implements PageEngine {
  readonly name = 'browser';
  readonly renders = true;
  readonly #pool: BrowserPool;
  readonly #browser: BrowserEngine;
  readonly #download: PageEngine;
  readonly #proxyLoopback: boolean;

  constructor(options: BrowserPageEngineOptions) {
    this.#pool = options.pool;
    this.#browser = new BrowserEngine(options.pool, options.settings);
    this.#download = options.download;
    this.#proxyLoopback = options.proxyLoopback;
  }

  async fetch<V extends RenderVerdict>(call: EngineCall<V>): Promise<PageResult<V>> {
    const { request, attempt, country } = call;
    const browserRequest: BrowserFetchRequest = {
      url: request.url,
      timeoutMs: remaining(call.deadline),
      statedTimeoutMs: request.statedTimeoutMs ?? request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      skipTlsVerification: request.skipTlsVerification ?? true,
      mobile: request.mobile ?? false,
      waitFor: request.waitFor ?? 0,
      blockAds: request.blockAds ?? true,
      stealth: attempt.mode === 'stealth',
      proxyLoopback: this.#proxyLoopback,
    };
    if (request.headers) browserRequest.headers = request.headers;
    if (request.signal) browserRequest.signal = request.signal;
    if (country) browserRequest.country = country;
    if (request.location?.languages?.length) browserRequest.languages = request.location.languages;
    if (request.screenshot) browserRequest.screenshot = request.screenshot;
    if (request.actions?.length) browserRequest.actions = request.actions;
    if (request.loadImages) browserRequest.loadImages = true;
    if (request.actionFailureScreenshot === false) browserRequest.actionFailureScreenshot = false;
    if (attempt.proxy) browserRequest.proxy = attempt.proxy;
    if (request.onRequestStart) browserRequest.onRequestStart = request.onRequestStart;
    if (request.browserSlot) browserRequest.browserSlot = request.browserSlot;
    if (request.onActions) browserRequest.onActions = request.onActions;
    if (request.onExchange) browserRequest.onExchange = request.onExchange;
    if (call.serve) browserRequest.serve = call.serve;
    let result;
    try {
      result = await this.#browser.fetch(browserRequest);
    } catch (error) {
      // A replayed download is the replay engine's to serve: nothing goes to the network.
      if (!isBrowserError(error) || error.code !== 'SCRAPE_DOWNLOAD' || call.serve) throw error;
      const file = await this.#download.fetch({ ...call, reason: 'download' });
      const unsupported = browserOnlyFeatures(request);
      if (unsupported.length) file.unsupportedFeatures = unsupported;
      return file;
    }
    request.onAnswer?.({ status: result.status, headers: result.headers });
    const { consent: _consent, settled, scriptError, ...page } = result;
    if (!settled) page.warnings = [...(page.warnings ?? []), NOT_SETTLED_WARNING];
    // A page the actions steered is what they left; one that loaded on its own and shows nothing is told.
    else if (
      !page.actions &&
      page.text !== undefined &&
      page.contentType === 'text/html' &&
      showsEmptyShell(page.text)
    ) {
      page.warnings = [...(page.warnings ?? []), emptyShellWarning(scriptError)];
    }
    return { ...page, engineReason: call.reason, proxyUsed: attempt.mode };
  }

  /** Closes every browser: no Chromium process survives it. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}
