import { clearTimeout, setTimeout } from 'node:timers';
import type { LookupFunction } from 'node:net';

import type { Dispatcher } from 'undici';

import { FetchError, isFetchError } from '../errors.js';
import { checksAddresses, guardLookup, resolveChecked } from '../policy/guarded-lookup.js';
import { blockedAfterRedirect, checkUrlAgainstPolicy, redactUrl, type UrlPolicy } from '../policy/url-policy.js';
import { describeBody } from './body-text.js';
import { parseContentType } from './content-type.js';
import { flattenResponseHeaders, mergeRequestHeaders } from './headers.js';
import { resolveLimits } from './limits.js';
import { LowSpeedMonitor } from './low-speed.js';
import { exchangeOf } from './exchange-of.js';
import { toFetchError } from './map-error.js';
import { proxySilentError } from '../proxy-errors.js';
import { Agent, buildConnector, ProxyAgent } from './undici-agents.js';
import {
  ACCEPT_ENCODING,
  discard,
  parseContentEncoding,
  readBody,
  tooLargeMessage,
  type BodyMeter,
} from './read-body.js';
import { RedirectCookies } from './redirect-cookies.js';
import { lostKeepAliveSocket, markingFreshSockets } from './stale-socket.js';
import { checkRedirectTarget, nextHop, ownHeaderNames, RedirectChain, redirectTarget, type Hop } from './redirects.js';
import type { FetchResult, HttpEngineOptions, HttpLimits, HttpRequest } from './types.js';
import { parseOptions } from '@crawlkit/options';
import { withinBudget } from '@crawlkit/options/within-budget';

import { httpOptionsSchema } from '../options.js';
import { MAX_TIMER_MS } from '../timer-limit.js';

/** The default `user-agent`: a browser-compatible token that names crawlkit (robots.txt groups match `crawlkit`). */
export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; crawlkit/0.1)';

/** The whole-request budget when a request sets none, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** How long `close()` lets in-flight requests finish before it destroys their sockets, in milliseconds. */
const CLOSE_GRACE_MS = 2_000;

const NO_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * Plain HTTP(S) fetching on undici: keep-alive connection pools shared across requests, manual redirects (each hop
 * re-checked against the URL policy), the URL policy enforced again on every resolved address at connect time,
 * decompression and every size and time limit checked while streaming, and charset detection.
 */
export class HttpEngine {
  readonly #policy: UrlPolicy;
  readonly #limits: HttpLimits;
  readonly #lookup: LookupFunction;
  readonly #baseLookup: LookupFunction | undefined;
  readonly #connections: number | undefined;
  readonly #defaultHeaders: Readonly<Record<string, string>>;
  readonly #dispatchers = new Map<string, Dispatcher>();
  readonly #lowSpeed: LowSpeedMonitor;
  #closed = false;

  /** @throws {InvalidOptionError} naming every bad option. */
  constructor(input: HttpEngineOptions = {}) {
    const options: HttpEngineOptions = parseOptions(httpOptionsSchema, input, 'new HttpEngine()');
    this.#policy = options.urlPolicy ?? {};
    this.#limits = resolveLimits(options.limits);
    this.#lookup = guardLookup(this.#policy, options.lookup);
    this.#baseLookup = options.lookup;
    this.#lowSpeed = new LowSpeedMonitor(this.#limits.lowSpeedBytesPerSec, this.#limits.lowSpeedWindowMs);
    this.#connections = options.connections;
    this.#defaultHeaders = Object.freeze({
      'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-language': 'en-US,en;q=0.9',
      'accept-encoding': ACCEPT_ENCODING,
    });
  }

  /** The limits in force (defaults filled in). */
  get limits(): Readonly<HttpLimits> {
    return this.#limits;
  }

  /**
   * Fetches `request.url`, following redirects. Resolves with the final response whatever its status; rejects
   * with a `FetchError` when no response could be had or a limit or the URL policy refused it.
   */
  async fetch(request: HttpRequest): Promise<FetchResult> {
    if (this.#closed) throw new FetchError('FETCHER_CLOSED', 'This HTTP engine is closed.');
    const startedAt = Date.now();
    const start = performance.now();
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
      throw new FetchError(
        'SCRAPE_INVALID_REQUEST',
        `Expected \`timeoutMs\` to be a number in (0, ${MAX_TIMER_MS}], got \`${String(timeoutMs)}\`.`,
      );
    }
    const { readAtMost } = request;
    if (readAtMost !== undefined && !(Number.isSafeInteger(readAtMost) && readAtMost > 0)) {
      throw new FetchError(
        'SCRAPE_INVALID_REQUEST',
        `Expected \`readAtMost\` to be a positive whole number of bytes, got \`${String(readAtMost)}\`.`,
      );
    }
    const skipTls = request.skipTlsVerification ?? true;

    let hop = this.#firstHop(request);
    const controller = new AbortController();
    const abort = (error: FetchError) => {
      if (!controller.signal.aborted) controller.abort(error);
    };
    const userSignal = request.signal;
    const onUserAbort = () => abort(abortedError(userSignal!.reason));
    if (userSignal?.aborted) throw abortedError(userSignal.reason, hop.url);
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    /** Whether the current hop's request is sent and its response not yet had: a deadline then is the proxy's. */
    let awaitingResponse = false;
    const timer = setTimeout(() => {
      const timedOut = `Scrape timed out after ${timeoutMs} ms`;
      abort(
        request.proxy && awaitingResponse
          ? proxySilentError(request.proxy, redactUrl(hop.url), timedOut)
          : new FetchError('SCRAPE_TIMEOUT', `${timedOut}.`),
      );
    }, timeoutMs);
    timer.unref();
    let unwatch: (() => void) | undefined;

    const chain = new RedirectChain(this.#limits.maxRedirects);
    try {
      const dispatcher = this.#dispatcher(skipTls, request.proxy);
      let cookies: RedirectCookies | undefined;
      let cookieState = 0;
      for (;;) {
        // A proxy resolves the name itself: resolve and check it here first (the proxy's answer may still differ).
        if (request.proxy && checksAddresses(this.#policy)) {
          await resolveChecked(hop.url.hostname, this.#policy, this.#baseLookup);
        }
        const jar = cookies?.header(hop.url);
        if (chain.visited.length === 0) {
          request.onRequestStart?.();
          controller.signal.throwIfAborted();
        }
        const send = () =>
          dispatcher.request({
            origin: hop.url.origin,
            path: hop.url.pathname + hop.url.search,
            method: hop.method,
            headers: jar
              ? { ...hop.headers, cookie: hop.headers.cookie ? `${hop.headers.cookie}; ${jar}` : jar }
              : hop.headers,
            ...(hop.body !== undefined ? { body: hop.body } : {}),
            signal: controller.signal,
          });
        awaitingResponse = true;
        const response = await untilAborted(
          send().catch((error: unknown) => {
            if (controller.signal.aborted || !lostKeepAliveSocket(error, hop.method, hop.body !== undefined))
              throw error;
            return send();
          }),
          controller.signal,
        );
        awaitingResponse = false;
        const target =
          request.followRedirects === false
            ? undefined
            : redirectTarget(response.statusCode, response.headers.location, hop.url);
        if (target) {
          await response.body.dump().catch(() => undefined);
          request.onExchange?.(exchangeOf(hop, response.statusCode, flattenResponseHeaders(response.headers)));
          const setCookie = response.headers['set-cookie'];
          if (setCookie) (cookies ??= new RedirectCookies()).store(hop.url, setCookie);
          const nextState = cookies?.version ?? 0;
          chain.follow(hop.url, cookieState, target, nextState);
          checkRedirectTarget(target, hop.url, this.#policy);
          hop = nextHop(hop, response.statusCode, target);
          cookieState = nextState;
          continue;
        }

        const ttfbMs = performance.now() - start;
        const headers = flattenResponseHeaders(response.headers);
        const { type, charset: declaredCharset } = parseContentType(headers['content-type']);
        let body: Uint8Array = new Uint8Array(0);
        let decoded = true;
        let wire: Uint8Array | undefined;
        let truncated: true | undefined;
        if (hop.method === 'HEAD' || NO_BODY_STATUSES.has(response.statusCode)) {
          await response.body.dump().catch(() => undefined);
        } else {
          const contentLength = Number(headers['content-length']);
          // A body read only in part (`readAtMost`) may be any size: the limits apply to what is read.
          if (contentLength > this.#limits.maxBodyBytes && readAtMost === undefined) {
            discard(response.body);
            throw new FetchError(
              'SCRAPE_RESPONSE_TOO_LARGE',
              tooLargeMessage(`body (${contentLength} bytes)`, this.#limits.maxBodyBytes, 'maxBodyBytes'),
            );
          }
          const meter: BodyMeter = { wireBytes: 0 };
          unwatch = this.#lowSpeed.watch(meter, (received) => abort(this.#tooSlow(received)));
          const codings = parseContentEncoding(headers['content-encoding']);
          const recording = request.onExchange !== undefined;
          const read = await readBody(response.body, codings, this.#limits, meter, redactUrl(hop.url), {
            keepWire: recording,
            ...(readAtMost !== undefined ? { readAtMost } : {}),
          });
          body = read.body;
          decoded = read.decoded;
          wire = read.wire;
          truncated = read.truncated;
        }

        const result: FetchResult = {
          url: redactUrl(hop.url),
          status: response.statusCode,
          headers,
          contentType: type,
          body,
          redirects: chain.visited,
          engine: 'http',
          timings: { startedAt, ttfbMs: round(ttfbMs), totalMs: round(performance.now() - start) },
        };
        if (truncated) result.truncated = truncated;
        if (decoded) describeBody(result, declaredCharset, request.deferDecoding ?? false);
        // Recorded as received: a decoded body's wire bytes, with its content-encoding.
        request.onExchange?.(exchangeOf(hop, response.statusCode, headers, wire ?? body, wire ? false : decoded));
        return result;
      }
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
      const failure =
        isFetchError(reason) && reason.url !== undefined
          ? reason
          : toFetchError(reason, hop.url, this.#limits, request.proxy);
      throw failure.code === 'URL_BLOCKED' && chain.visited.length
        ? blockedAfterRedirect(failure, chain.visited[0]!)
        : failure;
    } finally {
      clearTimeout(timer);
      unwatch?.();
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  /** Closes every connection pool; in-flight requests get a short grace period, then are cut. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#lowSpeed.close();
    const dispatchers = [...this.#dispatchers.values()];
    this.#dispatchers.clear();
    await Promise.all(
      dispatchers.map(async (dispatcher) => {
        const closing = dispatcher.close().catch(() => undefined);
        const outcome = await withinBudget(closing, CLOSE_GRACE_MS, () => 'late' as const);
        if (outcome === 'late') await dispatcher.destroy().catch(() => undefined);
      }),
    );
  }

  #firstHop(request: HttpRequest): Hop {
    const url = checkUrlAgainstPolicy(request.url, this.#policy);
    const headers = mergeRequestHeaders(request.defaultHeaders === false ? {} : this.#defaultHeaders, request.headers);
    if (url.username || url.password) {
      headers.authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    return { url, method: request.method ?? 'GET', headers, body: request.body, own: ownHeaderNames(request.headers) };
  }

  /** One keep-alive pool per TLS mode and proxy, created on first use. */
  #dispatcher(skipTls: boolean, proxy: string | undefined): Dispatcher {
    const key = `${skipTls ? 'insecure' : 'verify'}${proxy ? ` ${proxy}` : ''}`;
    let dispatcher = this.#dispatchers.get(key);
    if (dispatcher) return dispatcher;
    const limits = this.#limits;
    const common = {
      headersTimeout: limits.headersTimeoutMs,
      bodyTimeout: limits.idleTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      ...(this.#connections !== undefined ? { connections: this.#connections } : {}),
    };
    const tls = { rejectUnauthorized: !skipTls };
    if (proxy) {
      // The proxy is the operator's own: the URL policy applies to targets, not to the proxy's address.
      dispatcher = new ProxyAgent({
        ...common,
        uri: proxy,
        requestTls: tls,
        connect: { timeout: limits.connectTimeoutMs },
      });
    } else {
      dispatcher = new Agent({
        ...common,
        connect: markingFreshSockets(
          buildConnector({ ...tls, timeout: limits.connectTimeoutMs, lookup: this.#lookup }),
        ),
      });
    }
    this.#dispatchers.set(key, dispatcher);
    return dispatcher;
  }

  #tooSlow(received: number): FetchError {
    const { lowSpeedBytesPerSec: rate, lowSpeedWindowMs: windowMs } = this.#limits;
    return new FetchError(
      'SCRAPE_TIMEOUT',
      `Scrape timed out: the server sent ${received} bytes in ${windowMs} ms, below the minimum of ${rate} bytes/s.`,
    );
  }
}

function abortedError(reason: unknown, url?: URL): FetchError {
  const options = url ? { url: url.href, cause: reason } : { cause: reason };
  if (reason instanceof DOMException && reason.name === 'TimeoutError') {
    return new FetchError('SCRAPE_TIMEOUT', 'Scrape timed out', options);
  }
  return new FetchError('ABORTED', 'The request was aborted.', options);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * `pending`, or the signal's reason as soon as it aborts: undici holds a request's abort until its connection is made,
 * and through a proxy that accepts the connection and never answers the CONNECT, that was never (the scrape outlived
 * its timeout by the proxy client's 300 s headers timeout).
 */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}
