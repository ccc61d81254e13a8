import type { HttpEngine } from '../http/http-engine.js';
import type { HttpRequest } from '../http/types.js';
import type { PageResult } from '../page.js';
import type { RenderVerdict } from '../render/judge.js';
import { remaining, type EngineCall, type PageEngine } from './page-engine.js';

/** Pages over plain HTTP (undici): the response as it came, bytes left undecoded when the request asks it. */
export class HttpPageEngine implements PageEngine {
  readonly name = 'http';
  readonly renders = false;
  readonly #http: HttpEngine;

  constructor(http: HttpEngine) {
    this.#http = http;
  }

  async fetch<V extends RenderVerdict>(call: EngineCall<V>): Promise<PageResult<V>> {
    const { request, attempt } = call;
    const httpRequest: HttpRequest = { url: request.url, timeoutMs: remaining(call.deadline) };
    if (request.headers) httpRequest.headers = request.headers;
    if (request.skipTlsVerification !== undefined) httpRequest.skipTlsVerification = request.skipTlsVerification;
    if (request.signal) httpRequest.signal = request.signal;
    if (request.deferDecoding) httpRequest.deferDecoding = true;
    if (request.onRequestStart) httpRequest.onRequestStart = request.onRequestStart;
    if (request.onExchange) httpRequest.onExchange = request.onExchange;
    if (attempt.proxy) httpRequest.proxy = attempt.proxy;
    const result = await this.#http.fetch(httpRequest);
    request.onAnswer?.({ status: result.status, headers: result.headers });
    return { ...result, engineReason: call.reason, proxyUsed: attempt.mode };
  }

  /** The HTTP engine's pools belong to the fetcher, which closes them. */
  async close(): Promise<void> {}
}
