import { createMemoryStore, createSqliteStore, type Store } from '@crawlkit/cache';
import { Fetcher, STRICT_URL_POLICY, type FetcherOptions } from '@crawlkit/fetcher';
import { normalizeUrl } from '@crawlkit/frontier';
import PQueue from 'p-queue';

import type { EngineContext } from './context.js';
import { CrawlkitError, toErrorResponse } from './errors.js';
import { LlmService } from './llm/llm-service.js';
import { resolveOptions, type CrawlkitOptions, type ResolvedOptions } from './options.js';
import { scrapePage } from './scrape/scrape-page.js';
import { parseBody } from './v2/parse.js';
import { scrapeRequestSchema, type ScrapeRequestInput } from './v2/scrape-options.js';
import type { ErrorResponse, ScrapeResponse } from './v2/types.js';

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the call; a scrape then answers with an error, a job start is not created. */
  signal?: AbortSignal;
}

/**
 * A crawlkit engine: one method per v2 endpoint, taking and returning the v2 JSON shapes. Bad input never throws:
 * it comes back as `{ success: false, code, error, details }`.
 */
export class Crawlkit {
  readonly #options: ResolvedOptions;
  readonly #raw: CrawlkitOptions;
  readonly #queue: PQueue;
  #context: Promise<EngineContext> | undefined;
  #closed = false;

  constructor(options: CrawlkitOptions = {}) {
    this.#raw = options;
    this.#options = resolveOptions(options);
    this.#queue = new PQueue({ concurrency: this.#options.concurrency });
  }

  /** `POST /v2/scrape`: scrapes one URL. */
  async scrape(body: ScrapeRequestInput, init: CallOptions = {}): Promise<ScrapeResponse | ErrorResponse> {
    const parsed = parseBody(scrapeRequestSchema, body);
    if (!parsed.ok) return parsed.error;
    const request = parsed.value;
    try {
      const ctx = await this.#ready();
      const sourceURL = typeof (body as { url?: unknown }).url === 'string' ? (body as { url: string }).url : request.url;
      const outcome = await this.#queue.add(
        () =>
          scrapePage(ctx, request, {
            sourceURL,
            zeroDataRetention: request.zeroDataRetention,
            ...(init.signal ? { signal: init.signal } : {}),
          }),
        init.signal ? { signal: init.signal } : {},
      );
      if (!outcome.success) return outcome.error;
      return { success: true, data: outcome.document };
    } catch (error) {
      return toErrorResponse(error);
    }
  }

  /** Stops the browser, waits for running work to settle and closes the store. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const context = this.#context;
    if (!context) return;
    const ctx = await context.catch(() => undefined);
    if (!ctx) return;
    this.#queue.clear();
    await this.#queue.onIdle();
    await ctx.fetcher.close();
    await ctx.store.close();
  }

  #ready(): Promise<EngineContext> {
    if (this.#closed) return Promise.reject(new CrawlkitError('ENGINE_CLOSED', 'This Crawlkit instance is closed.'));
    this.#context ??= this.#createContext();
    return this.#context;
  }

  async #createContext(): Promise<EngineContext> {
    const raw = this.#raw;
    const urlPolicy = raw.urlPolicy === 'strict' ? STRICT_URL_POLICY : raw.urlPolicy;
    const fetcherOptions: FetcherOptions = { engine: this.#options.engine };
    if (raw.browser) fetcherOptions.browser = raw.browser;
    if (raw.proxies) fetcherOptions.proxies = raw.proxies;
    if (urlPolicy) fetcherOptions.urlPolicy = urlPolicy;
    fetcherOptions.http = { ...raw.http, ...(urlPolicy ? { urlPolicy } : {}) };
    const store: Store =
      raw.store === 'memory'
        ? createMemoryStore()
        : (raw.store ?? (await createSqliteStore({ dir: this.#options.storeDir, maxPageBytes: this.#options.cacheMaxBytes })));
    return {
      options: this.#options,
      fetcher: new Fetcher(fetcherOptions),
      store,
      llm: new LlmService(raw.llm),
      normalizeUrl: (url: string) => normalizeUrl(url),
    };
  }
}
