import type { Store } from '@crawlkit/store';
import type { FetcherOptions, HttpEngineOptions, UrlPolicy } from '@crawlkit/fetcher';
import type { LanguageModel } from 'ai';

import type { CrawlkitBackend } from './worker/backend.js';

import { resolveLlmOptions, type LlmOptions, type ResolvedLlmOptions } from './llm/llm-options.js';
import type { Logger } from './logger.js';

/** Engine-wide settings of a `Crawlkit` instance. Every field is optional. */
export interface CrawlkitOptions {
  /**
   * Directory of the embedded on-disk store (page cache, jobs, results, change history).
   * @default './.crawlkit'
   */
  storeDir?: string;
  /** A store to use instead of the on-disk one: `'memory'` keeps nothing after the process ends. */
  store?: Store | 'memory';
  /**
   * A distributed backend, e.g. `redis({ url })` from `@crawlkit/redis`: jobs, results and the page cache live there
   * (it replaces `store`), and crawl and batch tasks run on worker processes (`ck.startWorker()`, or
   * `crawlkit worker`) instead of in this one.
   * @default undefined (jobs run in-process on the embedded store)
   */
  backend?: CrawlkitBackend;
  /**
   * Which fetch engine serves pages: HTTP when enough and the browser when options or the page need it (`auto`),
   * or always one of them.
   * @default 'auto'
   */
  engine?: 'auto' | 'http' | 'browser';
  /**
   * Scrapes running at once across the whole engine (direct scrapes and every job); a job's `maxConcurrency`
   * applies within this.
   * @default 16
   */
  concurrency?: number;
  /**
   * Timeout of one scrape in milliseconds when the request sets none (v2 leaves it unset).
   * @default 30000
   */
  timeoutMs?: number;
  /**
   * Time one page's extraction (parsing, main content, markdown) may take, in milliseconds; past it the page falls
   * back to plain text with a warning.
   * @default 10000
   */
  extractionBudgetMs?: number;
  /** Browser engine settings (Chromium path, pool sizes). */
  browser?: FetcherOptions['browser'];
  /** Proxy servers for `proxy: basic | stealth | auto` and for `location.country`. */
  proxies?: FetcherOptions['proxies'];
  /** Which hosts and addresses may be fetched. `'strict'` blocks private and special networks. @default allow all */
  urlPolicy?: UrlPolicy | 'strict';
  /** HTTP engine settings: limits, user agent, DNS lookup. */
  http?: Omit<HttpEngineOptions, 'urlPolicy'>;
  /**
   * A language model for `json`, `summary`, change tracking json mode and crawl `prompt`: any Vercel AI SDK
   * `LanguageModel` (hosted, or a local OpenAI-compatible server), or `{ model, ...settings }`.
   * @default undefined (json and prompts are refused; summaries are extractive)
   */
  llm?: LanguageModel | LlmOptions;
  /** Webhook delivery settings. */
  webhooks?: {
    /**
     * HMAC-SHA256 secret: each delivery carries `X-Crawlkit-Signature: sha256=<hex>` (and the same value under
     * `X-Firecrawl-Signature`) plus a timestamp signature; check them with `verifyWebhook()`.
     * @default undefined (deliveries are unsigned)
     */
    secret?: string;
    /**
     * Time one delivery attempt may take, in milliseconds.
     * @default 10000
     */
    timeoutMs?: number;
    /**
     * Attempts per event before it is given up and recorded in the job's errors (network errors, timeouts, 5xx,
     * 408 and 429 are retried; other 4xx and URL-policy refusals give up at once).
     * @default 10
     */
    maxAttempts?: number;
    /**
     * Delay before the first retry in milliseconds; it doubles per attempt (1 s, 2 s, 4 s, ... with the default).
     * @default 1000
     */
    retryDelayMs?: number;
    /**
     * Longest delay between two attempts, in milliseconds.
     * @default 300000 (5 minutes)
     */
    maxRetryDelayMs?: number;
  };
  /** Resume unfinished jobs of the store as soon as the engine starts. @default false */
  resumeJobs?: boolean;
  /** Page cache settings. */
  cache?: {
    /** Total size of cached pages in bytes; the oldest are evicted beyond it. @default 1 GiB */
    maxBytes?: number;
  };
  /** How long job results are kept after the job finishes, in milliseconds. @default 86400000 (24 h) */
  jobResultTtlMs?: number;
  /**
   * Where diagnostics go (failed pages, job starts and ends, internal errors): a pino/winston/console-like logger.
   * @default a `debug` logger, silent unless `DEBUG=crawlkit:*`
   */
  logger?: Logger;
}

export interface ResolvedOptions {
  storeDir: string;
  engine: 'auto' | 'http' | 'browser';
  concurrency: number;
  timeoutMs: number;
  extractionBudgetMs: number;
  webhooks: { secret?: string; timeoutMs: number; maxAttempts: number; retryDelayMs: number; maxRetryDelayMs: number };
  resumeJobs: boolean;
  cacheMaxBytes: number;
  jobResultTtlMs: number;
  llm?: ResolvedLlmOptions;
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new TypeError(`Expected \`${name}\` to be a positive integer, got \`${String(value)}\``);
  }
  return value;
}

export function resolveOptions(options: CrawlkitOptions): ResolvedOptions {
  const webhooks: ResolvedOptions['webhooks'] = {
    timeoutMs: positiveInt('webhooks.timeoutMs', options.webhooks?.timeoutMs, 10_000),
    maxAttempts: positiveInt('webhooks.maxAttempts', options.webhooks?.maxAttempts, 10),
    retryDelayMs: positiveInt('webhooks.retryDelayMs', options.webhooks?.retryDelayMs, 1_000),
    maxRetryDelayMs: positiveInt('webhooks.maxRetryDelayMs', options.webhooks?.maxRetryDelayMs, 300_000),
  };
  if (options.webhooks?.secret !== undefined) webhooks.secret = options.webhooks.secret;
  return {
    storeDir: options.storeDir ?? './.crawlkit',
    engine: options.engine ?? 'auto',
    concurrency: positiveInt('concurrency', options.concurrency, 16),
    timeoutMs: positiveInt('timeoutMs', options.timeoutMs, 30_000),
    extractionBudgetMs: positiveInt('extractionBudgetMs', options.extractionBudgetMs, 10_000),
    webhooks,
    resumeJobs: options.resumeJobs ?? false,
    cacheMaxBytes: positiveInt('cache.maxBytes', options.cache?.maxBytes, 1024 ** 3),
    jobResultTtlMs: positiveInt('jobResultTtlMs', options.jobResultTtlMs, 86_400_000),
    ...(options.llm !== undefined ? { llm: resolveLlmOptions(options.llm) } : {}),
  };
}
