import type { HTTPResponse, Page } from 'puppeteer-core';

import type { Exchange, ExchangeSink } from '../warc/exchange.js';

/**
 * Collects what a page loaded, for recording: the document and every sub-resource the page got a response for, with
 * bodies read through CDP (`Network.getResponseBody`, via puppeteer's `response.buffer()`) as they arrive. A redirect
 * is recorded with its status and `location` and no body; a response whose body Chromium no longer holds is skipped.
 */
export class PageRecorder {
  readonly #pending: Promise<Exchange | undefined>[] = [];

  constructor(page: Page) {
    page.on('response', (response) => {
      this.#pending.push(exchangeOf(response));
    });
  }

  /** Waits for the bodies being read and hands every exchange to `sink`, in the order the responses came. */
  async flush(sink: ExchangeSink): Promise<void> {
    for (const exchange of await Promise.all(this.#pending.splice(0))) if (exchange) sink(exchange);
  }
}

async function exchangeOf(response: HTTPResponse): Promise<Exchange | undefined> {
  const url = response.url();
  if (!url.startsWith('http:') && !url.startsWith('https:')) return undefined;
  const request = response.request();
  const status = response.status();
  const redirect = status >= 300 && status < 400;
  let body = new Uint8Array(0);
  if (!redirect && request.method() !== 'HEAD' && status !== 204 && status !== 304) {
    try {
      body = new Uint8Array(await response.buffer());
    } catch {
      return undefined;
    }
  }
  return {
    url,
    method: request.method(),
    requestHeaders: request.headers(),
    status,
    headers: response.headers(),
    body,
    decoded: true,
    receivedAt: Date.now(),
    engine: 'browser',
  };
}
