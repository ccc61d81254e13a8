import type { ActionResults, ReadPageHtmlOptions } from '@crawlkit/actions';
import { captureScreenshot, runActions, sleep } from '@crawlkit/actions';
import type { CDPSession, HTTPResponse, Page } from 'puppeteer-core';

import { FetchError } from '../errors.js';
import { decodeText } from '../http/charset.js';
import { parseContentType } from '../http/content-type.js';
import type { FetchResult } from '../http/types.js';
import { redactUrl, type UrlPolicy } from '../policy/url-policy.js';
import { loadAdBlocker, type AdBlocker } from './adblock.js';
import type { BrowserSlotWait } from '../page.js';
import { LoadTimer } from './load-timer.js';
import type { BrowserLease, BrowserPool, IsolatedPage } from './browser-pool.js';
import { consentNoMatchHint, dismissCookieBanners, type ConsentOutcome } from './cookie-banners.js';
import type { CountryProfile } from './countries.js';
import type { BrowserError } from './errors.js';
import {
  browserLost,
  crashedError,
  type LoadClock,
  loadTooLong,
  normalizeLoadError,
  retryLostBrowser,
  waitForTooLong,
} from './load-errors.js';
import { downloadError, isDownload } from './downloads.js';
import { chromiumGaveUp, committed, connectionTimeoutCode, navigationError } from './navigation-errors.js';
import { raceAbort } from './abortable.js';
import { readRenderedHtml } from './rendered-html.js';
import { lazyImagesMs, pagePictures, type PixelNeeds } from './pixel-needs.js';
import { RequestGate } from './request-gate.js';
import { NetworkMonitor, smartWait, type SmartWaitSettings } from './smart-wait.js';
import { PageRecorder } from './page-recorder.js';
import { prepareForRequest } from './page-setup.js';
import { ScriptErrors } from './script-errors.js';
import type { ExchangeSink, RecordedSource } from '../warc/exchange.js';

/** One page load in the browser, with everything already decided by the fetcher. */
export interface BrowserFetchRequest extends PixelNeeds {
  url: string;
  headers?: Record<string, string>;
  /** Whole-request budget, in milliseconds. */
  timeoutMs: number;
  /**
   * The timeout the caller set, which the messages of a deadline name; `timeoutMs` is what an earlier attempt (or
   * the fetcher's own work before this one) left of it.
   * @default timeoutMs
   */
  statedTimeoutMs?: number;
  skipTlsVerification: boolean;
  signal?: AbortSignal;
  mobile: boolean;
  country?: CountryProfile;
  languages?: readonly string[];
  /** Extra wait after the smart wait, in milliseconds. */
  waitFor: number;
  /** Whether a failing action's error carries a screenshot of the page (`PageRequest.actionFailureScreenshot`). */
  actionFailureScreenshot?: boolean;
  blockAds: boolean;
  stealth: boolean;
  /** Proxy URL (credentials allowed), or none for a direct connection. */
  proxy?: string;
  /** Send loopback requests through `proxy` too. */
  proxyLoopback?: boolean;
  /**
   * Called synchronously right before the page's navigation starts: once, or twice when the page is loaded again on a
   * new browser. It may abort `signal` (a job holding the request back): then no navigation starts (`ABORTED`).
   */
  onRequestStart?: () => void;
  /** The caller keeps the clock of the wait for a browser page (`PageRequest.browserSlot`). */
  browserSlot?: BrowserSlotWait;
  /** Told when the page's actions start (`PageRequest.onActions`). */
  onActions?: () => void;
  /** Receives the document's and every sub-resource's exchange (bodies through CDP), before the result returns. */
  onExchange?: ExchangeSink;
  /** Serves every request of the page from recordings, with no network (replay). */
  serve?: RecordedSource;
}

/** What a browser page load returned. */
export interface BrowserFetchResult extends FetchResult {
  screenshot?: string;
  actions?: ActionResults;
  /** Requests the engine refused (policy, ads, and the images, media and fonts of a page showing no pixels). */
  blockedRequests: number;
  consent?: ConsentOutcome;
  /** Notes for the document's `warning` (a cut screenshot). */
  warnings?: string[];
  /** Whether the smart wait saw the page settle before its cap. */
  settled: boolean;
  /** The first uncaught error of the page's scripts (`ScriptErrors`). */
  scriptError?: string;
}

/** Settings of the browser engine. */
export interface BrowserEngineSettings {
  policy: UrlPolicy;
  /** Cap of the smart wait, in milliseconds. */
  smartWaitMaxMs: number;
  /** Directory for screenshots and PDFs written as files. */
  screenshotDir?: string;
  /** Filter list files replacing the default ad and tracker list. */
  adblockLists?: readonly string[];
  /** A rendered document longer than this is refused (`SCRAPE_RESPONSE_TOO_LARGE`): the HTTP body limit. */
  maxContentChars: number;
  /** Quiet periods of the smart wait. */
  smartWait?: SmartWaitSettings;
  /** Redirects a navigation may follow: the HTTP engine's `maxRedirects`. @default Chromium's own limit (19) */
  maxRedirects?: number;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Loads pages in pooled Chromium: navigation, smart wait, actions, capture. */
export class BrowserEngine {
  readonly #pool: BrowserPool;
  readonly #settings: BrowserEngineSettings;
  constructor(pool: BrowserPool, settings: BrowserEngineSettings) {
    this.#pool = pool;
    this.#settings = settings;
  }

  /**
   * Loads `request.url` and returns the rendered HTML (or the raw body of a non-HTML response).
   * @throws FetchError (network, policy, timeout, abort), BrowserError (launch, crash, download, site error),
   * ActionError (a failing action).
   */
  async fetch(request: BrowserFetchRequest): Promise<BrowserFetchResult> {
    const deadline = { at: performance.now() + request.timeoutMs };
    try {
      return await this.#fetchOnce(request, deadline);
    } catch (error) {
      // Chromium itself went away under the page (killed, or out of memory): the page is not at fault, and the pool
      // starts a new browser, so the page is loaded once more there. A renderer that crashed on this page is not.
      return await retryLostBrowser(error, request, deadline, () => this.#fetchOnce(request, deadline));
    }
  }

  async #fetchOnce(request: BrowserFetchRequest, deadline: { at: number }): Promise<BrowserFetchResult> {
    const controller = new AbortController();
    const url = redactUrl(request.url);
    const statedMs = request.statedTimeoutMs ?? request.timeoutMs;
    const timing = { statedMs, pagesAtOnce: this.#pool.maxConcurrentPages, slot: request.browserSlot };
    const timer = new LoadTimer(deadline, timing, () =>
      controller.abort(
        // A proxy that took the connection and never answered is named, not the site alone.
        this.#pool.gate.silentUpstream(request.url, request.proxy, statedMs) ??
          loadTooLong(request.url, statedMs, clock),
      ),
    );
    const clock = timer.clock;
    const onUserAbort = () =>
      controller.abort(
        new FetchError('ABORTED', `The request for ${url} was aborted.`, { url, cause: request.signal?.reason }),
      );
    if (request.signal?.aborted) onUserAbort();
    else request.signal?.addEventListener('abort', onUserAbort, { once: true });

    let lease: BrowserLease | undefined;
    let opened: IsolatedPage | undefined;
    // The page still opening when the load gave up (its timeout, an abort): closed once it has opened.
    let opening: Promise<IsolatedPage> | undefined;
    // A killed Chromium leaves the page's waits (timers, not calls) running until the deadline: fail it at once.
    const onDisconnected = () => controller.abort(browserLost(url, new Error('Chromium disconnected.')));
    // Loaded while Chromium starts and the page opens (the first load of a process compiles or reads the engine).
    const adBlocker = request.blockAds ? loadAdBlocker(this.#settings.adblockLists) : undefined;
    adBlocker?.catch(() => undefined);
    try {
      timer.waiting();
      lease = await this.#pool.acquire(controller.signal, timer.acquired);
      const acquired = lease;
      if (acquired.browser.connected) acquired.browser.once('disconnected', onDisconnected);
      else onDisconnected();
      const work = (async () => {
        opening = acquired.openPage(
          request.proxy ? { upstream: request.proxy, proxyLoopback: request.proxyLoopback ?? false } : {},
        );
        opened = await opening;
        const { page, session } = opened;
        // A crashed renderer leaves every pending call hanging: fail the request at once instead.
        page.on('error', (crash) => controller.abort(crashedError(url, crash)));
        return this.#load(page, session, acquired, request, deadline.at, clock, controller.signal, adBlocker);
      })();
      work.catch(() => undefined);
      return await raceAbort(work, controller.signal);
    } catch (error) {
      throw await normalizeLoadError(error, controller.signal, lease, request.url);
    } finally {
      timer.stop();
      request.signal?.removeEventListener('abort', onUserAbort);
      lease?.browser.off('disconnected', onDisconnected);
      if (opened) await opened.close();
      else void opening?.then(closePage, () => undefined);
      await lease?.release();
    }
  }

  async #load(
    page: Page,
    session: CDPSession,
    lease: BrowserLease,
    request: BrowserFetchRequest,
    deadline: number,
    clock: LoadClock,
    signal: AbortSignal,
    adBlocker: Promise<AdBlocker> | undefined,
  ): Promise<BrowserFetchResult> {
    const { startedAt, statedMs } = clock;
    const remaining = () => deadline - performance.now();
    const target = new URL(request.url);
    const pictures = pagePictures(request);
    const gate = new RequestGate({
      policy: this.#settings.policy,
      ...(this.#settings.maxRedirects === undefined ? {} : { maxRedirects: this.#settings.maxRedirects }),
      pictures,
      ...(adBlocker ? { adBlocker: await adBlocker } : {}),
      ...(request.serve ? { serve: request.serve } : {}),
      // The user agent goes to every host: it is the browser's own (emulation), not a header the page adds.
      siteHeaders: {
        names: Object.keys(request.headers ?? {}).filter((n) => !/^user-agent$/i.test(n)),
        url: target,
      },
    });
    await Promise.all([prepareForRequest(page, session, lease, request, target), gate.attach(page)]);
    const network = new NetworkMonitor(page);
    const scriptErrors = new ScriptErrors(page);
    const recorder = request.onExchange ? new PageRecorder(page) : undefined;
    const networkGate = this.#pool.gate;
    let mainResponse: HTTPResponse | undefined;
    let ttfbMs: number | undefined;
    /** A main-frame response the network gate answered itself (a refusal or a failed connection). */
    let gateError: FetchError | undefined;
    page.on('response', (response) => {
      const req = response.request();
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) {
        mainResponse = response;
        ttfbMs ??= Date.now() - startedAt;
        gateError ??= networkGate.errorOf(response.headers());
      }
    });
    /** Whatever navigation the main frame made, to a refused or failed target: the request fails with it. */
    const failedNavigation = (error?: unknown): FetchError | BrowserError | undefined => {
      if (gate.mainFrameError) return gate.mainFrameError;
      if (gateError) return gateError;
      const last = gate.lastMainFrameUrl ?? request.url;
      const tunnelError = networkGate.tunnelError(last, request.proxy, startedAt);
      // Chromium's own limit ended a tunnel that the proxy never answered: the proxy is named, as at the deadline.
      const limit = connectionTimeoutCode(error);
      const silent =
        limit === undefined ? undefined : networkGate.silentUpstream(last, request.proxy, chromiumGaveUp(limit));
      if (error !== undefined) return tunnelError ?? silent ?? navigationError(error, last, gate.hops);
      if (page.url().startsWith('chrome-error:'))
        return tunnelError ?? navigationError(new Error('net::ERR_FAILED'), last);
      return undefined;
    };

    // Time kept for the capture, whatever the waits before it take.
    const reserveMs = Math.min(2_000, request.timeoutMs * 0.2);
    /** DOMContentLoaded never came: the page is captured as shown, never said to have settled. */
    let domNeverLoaded = false;
    clock.readyMs = Date.now() - startedAt;
    try {
      request.onRequestStart?.();
      signal.throwIfAborted(); // held back as it left: Chromium would still navigate before it saw the abort
      const response = await page.goto(request.url, {
        waitUntil: 'domcontentloaded',
        // `waitFor` is waited whole after the load or not at all: a load still going on when less than it is left
        // cannot end in a page, so it is given up then, named as `waitFor`'s (a shown document goes on to its wait).
        timeout: Math.max(1, remaining() - reserveMs - request.waitFor),
        signal,
      });
      if (response) mainResponse = response;
    } catch (error) {
      if (gate.mainFrameError) throw gate.mainFrameError;
      if (mainResponse && isDownload(mainResponse)) throw downloadError(request.url, mainResponse);
      if (signal.aborted) throw signal.reason;
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      // Shown, but DOMContentLoaded waits on a script that never comes: captured as it is, said to be still loading.
      if (timedOut && !(mainResponse && committed(page))) {
        const last = gate.lastMainFrameUrl ?? request.url;
        throw (
          networkGate.silentUpstream(last, request.proxy, statedMs) ??
          (request.waitFor > 0
            ? waitForTooLong(request, statedMs, remaining() - reserveMs, true)
            : loadTooLong(request.url, statedMs, clock, error))
        );
      }
      if (!timedOut) throw failedNavigation(error)!;
      domNeverLoaded = true;
    }
    if (!mainResponse) throw navigationError(new Error('net::ERR_EMPTY_RESPONSE'), request.url);
    if (gateError) throw gateError;
    // A PDF shown in Chromium's viewer (or any file it would save) is not a page: the caller fetches its bytes.
    if (isDownload(mainResponse)) throw downloadError(request.url, mainResponse);

    // The smart wait and the cookie banners leave room for `waitFor`, which is waited whole or not at all.
    const beforeWaitFor = () => remaining() - reserveMs - request.waitFor;
    const settleBudget = () => Math.max(0, Math.min(this.#settings.smartWaitMaxMs, beforeWaitFor()));
    const waits = this.#settings.smartWait ?? {};
    let settled = await smartWait(page, network, settleBudget(), waits, signal);

    let consent: ConsentOutcome | undefined;
    if (request.blockAds) {
      consent = await dismissCookieBanners(page, Math.max(0, beforeWaitFor()), signal);
      if (signal.aborted) throw signal.reason;
      await gate.removeBlockedFrames(page);
    }
    if (request.waitFor > 0) {
      // The waits before it may end a little late (their last poll, a loaded machine): half the capture's reserve.
      if (beforeWaitFor() < -reserveMs / 2) throw waitForTooLong(request, statedMs, remaining() - reserveMs, false);
      await sleep(request.waitFor, signal);
    }

    let actions: ActionResults | undefined;
    const warnings: string[] = [];
    const output = {
      ...(this.#settings.screenshotDir === undefined ? {} : { outputDir: this.#settings.screenshotDir }),
      warnings,
    };
    if (request.actions?.length) {
      request.onActions?.();
      actions = await runActions(page, request.actions, {
        timeoutMs: Math.max(1, remaining() - reserveMs),
        loadMs: request.timeoutMs - remaining(),
        loadUnfinished: domNeverLoaded,
        // The page's picture on a failure comes out of the capture's reserve, leaving room for the error to return.
        failureCaptureMs: request.actionFailureScreenshot === false ? 0 : reserveMs / 2,
        noMatchHint: consentNoMatchHint(consent),
        pageGone: failedNavigation,
        maxScrapeChars: this.#settings.maxContentChars,
        signal,
        ...output,
        settle: async (ms) => {
          settled = await smartWait(page, network, Math.min(ms, settleBudget()), waits, signal);
        },
      }).catch((error: unknown) => Promise.reject(failedNavigation() ?? (error as Error)));
      if (request.blockAds) await gate.removeBlockedFrames(page);
    }

    // A later navigation (meta refresh, script, action) refused or failed is the result, even if an action then failed.
    const failed = failedNavigation();
    if (failed) throw failed;
    const read = { timeoutMs: Math.max(1, remaining()), signal };
    const result = await this.#capture(page, mainResponse, request, { startedAt, ttfbMs, read });
    if (pictures.screenshot) {
      const waits = { lazyImagesMs: lazyImagesMs(pictures, remaining() - reserveMs) }; // before the capture's reserve
      result.screenshot = await captureScreenshot(page, pictures.screenshot, output, waits);
    }
    if (warnings.length) result.warnings = warnings;
    if (actions) result.actions = actions;
    if (consent) result.consent = consent;
    result.blockedRequests = gate.blocked.length;
    result.settled = settled && !domNeverLoaded;
    if (scriptErrors.first !== undefined) result.scriptError = scriptErrors.first;
    if (result.timings) result.timings.totalMs = Date.now() - startedAt;
    if (recorder) await recorder.flush(request.onExchange!);
    return result;
  }

  async #capture(
    page: Page,
    response: HTTPResponse,
    request: BrowserFetchRequest,
    { startedAt, ttfbMs, read }: { startedAt: number; ttfbMs: number | undefined; read: ReadPageHtmlOptions },
  ): Promise<BrowserFetchResult> {
    const headers = response.headers();
    const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    // The requests before the final one, in order (the final response's own request is not in it).
    const redirects = response
      .request()
      .redirectChain()
      .map((r) => r.url());
    const isHtml = contentType === '' || HTML_TYPES.has(contentType) || Boolean(request.actions?.length);
    // Read before the URL is: a navigation during the read is followed, and the URL is then the read document's.
    const html = isHtml ? await readRenderedHtml(page, this.#settings.maxContentChars, request.url, read) : undefined;
    const base = {
      url: page.url() || response.url(),
      status: response.status(),
      headers,
      redirects,
      engine: 'browser' as const,
      timings: { startedAt, ttfbMs: ttfbMs ?? 0, totalMs: Date.now() - startedAt },
      blockedRequests: 0,
      settled: true,
    };
    if (html !== undefined) {
      // The encoding Chromium read the document in: the queries of its links are in it (`text` is a string)
      const charset = String(await page.evaluate('document.characterSet').catch(() => 'utf-8')).toLowerCase();
      return { ...base, contentType: 'text/html', charset, body: new TextEncoder().encode(html), text: html };
    }
    // JSON, plain text, XML, ...: the bytes the server sent, not Chromium's viewer page around them.
    const body = new Uint8Array(await response.buffer().catch(() => Buffer.alloc(0)));
    const parsed = parseContentType(headers['content-type']);
    const decoded = decodeText(body, parsed.type, parsed.charset, headers['content-language']);
    return { ...base, contentType, charset: decoded.charset, body, text: decoded.text };
  }
}

const closePage = (page: IsolatedPage) => page.close();
