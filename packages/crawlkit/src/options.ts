import { availableParallelism } from 'node:os';

import type { CrawlkitBackend, PageCache, Store } from '@crawlkit/store';
import {
  browserOptionsSchema,
  DEFAULT_TIMEOUT_MS,
  httpOptionsSchema,
  proxyConfigSchema,
  urlPolicySchema,
  type FetcherOptions,
  type HttpEngineOptions,
  type UrlPolicy,
} from '@crawlkit/fetcher';
import { InvalidOptionError, objectWith, parseOptions, positiveInt, type Same } from '@crawlkit/options';
import type { LanguageModel } from 'ai';
import { z } from 'zod';

import { engineLearningSchema, type EngineLearningOptions } from './jobs/engine-learning.js';
import { jobLimitsSchema, type JobLimitOptions } from './jobs/job-limits.js';
import { resolveLlmOptions, type LlmOptions, type ResolvedLlmOptions } from './llm/llm-options.js';
import { loggerSchema, type Logger } from './logger.js';
import { searchOptionsSchema, type SearchOptions } from './search/options.js';
import { refuseEngines, storeOptionSchema } from './extension-options.js';
import { ENGINE_DEFAULTS } from './engine-defaults.js';
import type { DeliverySettings } from './webhooks/dispatcher-options.js';
import { webhookOptionsSchema, type WebhookOptions } from './webhooks/webhook-options.js';

/** Engine-wide settings of a `Crawlkit` instance. Every field is optional. */
export interface CrawlkitOptions {
  /**
   * Directory of the embedded on-disk store (page cache, jobs, results, change history). `'memory'` alone is refused
   * as the in-memory store's name (`store: 'memory'`, as the CLI's `--store memory`): a folder of that name is
   * `'./memory'`.
   * @default './.crawlkit'
   */
  storeDir?: string;
  /**
   * Before the on-disk store migrates a file of an older schema (the first open after an upgrade), write a copy of
   * it beside it (`crawlkit.db.schema-12.bak`): the way back to the earlier crawlkit, as large as the file. `false`
   * migrates without it (a store too large to copy; there is then no way back).
   * @default true
   */
  storeMigrationCopy?: boolean;
  /**
   * A store to use instead of the on-disk one: `'memory'` keeps nothing after the process ends. A `PageCache` (a
   * backend that only caches pages, e.g. one shared by many engines) holds the page cache; jobs and change history
   * are then kept in memory, which a `warning` event (`STORE_PAGES_ONLY`) says at the first call. A store given here
   * is the engine's: its `close()` closes the store too, so engines sharing one backend each get a handle of their
   * own (whose `close()` closes that handle), or the last engine's `close()` ends it for all.
   * @default undefined (the SQLite store in `storeDir`)
   */
  store?: Store | PageCache | 'memory';
  /**
   * A distributed backend, e.g. `redis({ url })` from `@crawlkit/redis`: jobs, results and the page cache live there
   * (it replaces `store`), and crawl and batch tasks run on worker processes (`ck.startWorker()`, or
   * `crawlkit worker`) instead of in this one.
   * @default undefined (jobs run in-process on the embedded store)
   */
  backend?: CrawlkitBackend;
  /**
   * Which fetch engine serves pages: HTTP when enough and the browser when options or the page need it (`auto`),
   * or always one of them. `replay` serves every page, robots.txt and sitemap from the WARC files of `replay`, with
   * no network; the page cache is then neither read nor written.
   * @default 'auto'
   */
  engine?: 'auto' | 'http' | 'browser' | 'replay';
  /**
   * The recordings `engine: 'replay'` serves from: WARC files (`.warc`, `.warc.gz`), such as the `warcFile` of a job
   * run with `record: true`. For a URL held by several, the first file wins. Required with `engine: 'replay'`.
   * @default undefined
   */
  replay?: { files: string[] };
  /**
   * How a crawl or batch learns, per host, whether its pages need the browser (with `engine: 'auto'`): once a host's
   * pages have needed rendering, its further pages go straight to the browser, and a share of them is checked both
   * ways. What was learned lives in the job's store (it survives a resume; Redis workers share it). `false`: every
   * page is judged on its own.
   * @default { checkShare: 0.1, minPages: 2, maxHosts: 10000 }
   */
  engineLearning?: false | EngineLearningOptions;
  /**
   * Scrapes running at once across the whole engine (direct scrapes and every job); a job's `maxConcurrency`
   * applies within this.
   * @default 16
   */
  concurrency?: number;
  /**
   * Timeout of one scrape in milliseconds when the request sets none (v2 leaves it unset). It counts the page's own
   * work (fetch, extraction, formats, the model's answers), not its waits for the engine's shared slots
   * (`concurrency`, a host's slot, `llm.concurrency`).
   * @default 30000
   */
  timeoutMs?: number;
  /**
   * How long a crawl waits for its robots.txt, in milliseconds, before it goes on as if the file allowed every page
   * (as for a robots.txt that answers 5xx), its status `warning` saying so; a crawl's `scrapeOptions.timeout`, when
   * shorter, bounds it too. Cancelling the crawl ends the wait at once. A map waits as long for its `Sitemap:` lines.
   * @default 10000
   */
  robotsTimeoutMs?: number;
  /**
   * Time one page's extraction (parsing, main content, markdown) may take from its start, in milliseconds. Past it
   * (and within the page's `timeout`), the page's plain text is returned instead, with a `warning`. The `timeout`
   * itself is a hard deadline for fetch and extraction together.
   * @default 10000
   */
  extractionBudgetMs?: number;
  /**
   * Largest file `ck.parse()` and `crawlkit parse` take, in bytes; a larger one is refused before any work with
   * `PAYLOAD_TOO_LARGE`. The HTTP server's uploads (`POST /v2/parse`, `startServer()`) and the MCP server's
   * `firecrawl_parse` take this limit too, unless given their own `parseFileLimit`.
   * @default 52428800 (50 MiB)
   */
  parseFileLimit?: number;
  /**
   * The worker threads that extract pages (parsing, main content, markdown, links, images, metadata, PDF text,
   * change-tracking diffs), so that no page can stall the engine's main thread.
   * @default { size: os.availableParallelism(), maxMemoryMb: 1024 }
   */
  workers?: {
    /**
     * Worker threads. `0` extracts on the main thread: no hard `timeout` or memory limit during extraction (a
     * hostile page can then stall the process); for debugging and comparison only.
     * @default os.availableParallelism() (the cores the process may use)
     */
    size?: number;
    /**
     * Heap limit of each worker thread, in MiB (Node `resourceLimits`). A page needing more stops its worker (which
     * is replaced) and fails with `SCRAPE_PAGE_TOO_COMPLEX`.
     * @default 1024
     */
    maxMemoryMb?: number;
  };
  /**
   * Browser engine settings (Chromium path, pool sizes), checked by `@crawlkit/fetcher`.
   * @default {} (the system Chromium, found on the PATH or by `CRAWLKIT_CHROMIUM`)
   */
  browser?: FetcherOptions['browser'];
  /**
   * Proxy servers for `proxy: basic | stealth | auto` and for `location.country`.
   * @default undefined (direct connections)
   */
  proxies?: FetcherOptions['proxies'];
  /**
   * Which hosts and addresses may be fetched. `'strict'` blocks private and special networks.
   * @default undefined (everything allowed)
   */
  urlPolicy?: UrlPolicy | 'strict';
  /**
   * HTTP engine settings: limits, user agent, DNS lookup; checked by `@crawlkit/fetcher`.
   * @default {}
   */
  http?: Omit<HttpEngineOptions, 'urlPolicy'>;
  /**
   * A language model for `json`, `summary`, change tracking json mode and crawl `prompt`: any Vercel AI SDK
   * `LanguageModel` (hosted, or a local OpenAI-compatible server), or `{ model, ...settings }`.
   * @default undefined (json and prompts are refused; summaries are extractive)
   */
  llm?: LanguageModel | LlmOptions;
  /**
   * Webhook delivery settings.
   * @default {}
   */
  webhooks?: WebhookOptions;
  /**
   * Resume unfinished jobs of the store as soon as the engine starts.
   * @default false
   */
  resumeJobs?: boolean;
  /**
   * With `resumeJobs`, how often the engine looks for the store's unfinished jobs that no live process drives any
   * more (another process on the store died, or let its lease lapse) and takes them over, in milliseconds. A process
   * of this host that died is seen at once; one of another host once its lease lapses (30 s).
   * @default 10000
   */
  resumeScanMs?: number;
  /**
   * Run the schedules of the store (`createSchedule`) in this engine from its start: each firing due is claimed in
   * the store, so that of several engines on one store exactly one runs it, and a firing missed while no engine ran
   * runs once at the start. `crawlkit serve` sets it.
   * @default false
   */
  runSchedules?: boolean;
  /**
   * Where the header values of a crawl or batch (request `headers`, webhook `headers`: cookies, `Authorization`,
   * tokens) are kept so that the job can resume. `true`: in the store, encrypted (AES-256-GCM) with the store's key:
   * `secret.key` beside the embedded store (mode 0600, created on first use), the `secretKey` of a Redis backend.
   * `false`: encrypted with a key that lives only in this engine's memory, so nothing on disk can ever read them;
   * such a job cannot be resumed by another engine or after a restart (`STORE_SECRET_UNREADABLE`). Not possible with
   * a distributed `backend`, whose workers need the values. A webhook's URL is sealed with the store's key too, and
   * kept as given with `false`, so that its events still reach it after a restart.
   * @default true
   */
  persistSecrets?: boolean;
  /**
   * Page cache settings.
   * @default {}
   */
  cache?: {
    /**
     * Total size of cached pages in bytes; the oldest are evicted beyond it.
     * @default 1073741824 (1 GiB)
     */
    maxBytes?: number;
  };
  /**
   * How long job results are kept after the job finishes, in milliseconds. Stored with each job this engine starts:
   * whichever process ends it (a Redis worker, another engine on the store) keeps its results that long.
   * @default 86400000 (24 h)
   */
  jobResultTtlMs?: number;
  /**
   * Limits of each crawl or batch job.
   * @default {}
   */
  jobs?: JobLimitOptions;
  /**
   * Search (`ck.search()`, `POST /v2/search`): the web search provider, and hybrid ranking with an embedding model.
   * @default {} (the local index of stored pages only, BM25)
   */
  search?: SearchOptions;
  /**
   * Where diagnostics go (failed pages, job starts and ends, internal errors): a pino/winston/console-like logger.
   * @default a `debug` logger, silent unless `DEBUG=crawlkit:*`
   */
  logger?: Logger;
}

export interface ResolvedOptions {
  storeDir: string;
  storeMigrationCopy: boolean;
  engine: 'auto' | 'http' | 'browser' | 'replay';
  /** The recordings of `engine: 'replay'`. */
  replay?: { files: string[] };
  engineLearning: false | Required<EngineLearningOptions>;
  concurrency: number;
  timeoutMs: number;
  robotsTimeoutMs: number;
  extractionBudgetMs: number;
  parseFileLimit: number;
  workers: { size: number; maxMemoryMb: number };
  webhooks: DeliverySettings;
  resumeJobs: boolean;
  resumeScanMs: number;
  runSchedules: boolean;
  persistSecrets: boolean;
  cacheMaxBytes: number;
  jobResultTtlMs: number;
  jobs: { maxStoreBytes: number };
  llm?: ResolvedLlmOptions;
  search: SearchOptions;
}

/** The default largest file of `parse()`, the CLI's `parse` and the HTTP server's `POST /v2/parse`: 50 MiB. */
export const PARSE_FILE_LIMIT = ENGINE_DEFAULTS.parseFileLimit;

/** The one check of `CrawlkitOptions`: strict at every level crawlkit owns, so a misspelt key is named. */
const optionsSchema = z.strictObject({
  storeDir: z
    .string()
    .min(1)
    .refine((dir) => dir !== 'memory', {
      error:
        "storeDir is a directory: for the in-memory store write store: 'memory' (a folder named memory: './memory')",
    })
    .default(ENGINE_DEFAULTS.storeDir),
  storeMigrationCopy: z.boolean().default(true),
  store: storeOptionSchema.optional(),
  backend: objectWith<CrawlkitBackend>('a CrawlkitBackend such as redis({ url })', 'connect()').optional(),
  engine: z.enum(['auto', 'http', 'browser', 'replay']).default(ENGINE_DEFAULTS.engine),
  replay: z.strictObject({ files: z.array(z.string().min(1)).min(1) }).optional(),
  engineLearning: engineLearningSchema,
  concurrency: positiveInt.default(ENGINE_DEFAULTS.concurrency),
  timeoutMs: positiveInt.default(DEFAULT_TIMEOUT_MS),
  robotsTimeoutMs: positiveInt.default(ENGINE_DEFAULTS.robotsTimeoutMs),
  extractionBudgetMs: positiveInt.default(ENGINE_DEFAULTS.extractionBudgetMs),
  parseFileLimit: positiveInt.default(PARSE_FILE_LIMIT),
  workers: z
    .strictObject({
      size: z.number().int().min(0).max(256).default(availableParallelism),
      maxMemoryMb: z.number().int().min(ENGINE_DEFAULTS.workerMemoryMinMb).default(ENGINE_DEFAULTS.workerMemoryMb),
    })
    .prefault({}),
  // The fetcher's own schemas: strict, so a misspelt key of theirs is named here too.
  browser: browserOptionsSchema.optional(),
  proxies: proxyConfigSchema.optional(),
  urlPolicy: z.union([z.literal('strict'), urlPolicySchema]).optional(),
  http: httpOptionsSchema.omit({ urlPolicy: true }).optional(),
  /** Checked by `resolveLlmOptions`. */
  llm: z.custom<LanguageModel | LlmOptions>(() => true).optional(),
  webhooks: webhookOptionsSchema,
  resumeJobs: z.boolean().default(false),
  resumeScanMs: positiveInt.default(ENGINE_DEFAULTS.resumeScanMs),
  runSchedules: z.boolean().default(false),
  persistSecrets: z.boolean().default(true),
  cache: z.strictObject({ maxBytes: positiveInt.default(1024 ** 3) }).prefault({}),
  jobResultTtlMs: positiveInt.default(ENGINE_DEFAULTS.jobResultTtlMs),
  jobs: jobLimitsSchema,
  search: searchOptionsSchema.default({}),
  logger: loggerSchema.optional(),
});

// The schema and the documented interface describe the same input: the same keys, each accepting what the other does.
type SchemaInput = z.input<typeof optionsSchema>;
const _sameInput: [
  Same<CrawlkitOptions, SchemaInput>,
  Same<keyof CrawlkitOptions, keyof SchemaInput>,
  Same<keyof NonNullable<CrawlkitOptions['webhooks']>, keyof NonNullable<SchemaInput['webhooks']>>,
  Same<keyof NonNullable<CrawlkitOptions['cache']>, keyof NonNullable<SchemaInput['cache']>>,
  Same<keyof NonNullable<CrawlkitOptions['workers']>, keyof NonNullable<SchemaInput['workers']>>,
  Same<keyof NonNullable<CrawlkitOptions['jobs']>, keyof NonNullable<SchemaInput['jobs']>>,
  Same<keyof EngineLearningOptions, keyof Exclude<NonNullable<SchemaInput['engineLearning']>, false>>,
  Same<keyof SearchOptions, keyof NonNullable<SchemaInput['search']>>,
] = [true, true, true, true, true, true, true, true];

/**
 * Checks and defaults the options of `new Crawlkit()`.
 * @throws {InvalidOptionError} (a `TypeError` with code `INVALID_OPTION`) naming every bad option.
 */
export function resolveOptions(input: CrawlkitOptions): ResolvedOptions {
  refuseEngines(input);
  const data = parseOptions(optionsSchema, input, 'new Crawlkit()');
  const { cache, storeDir, engine, engineLearning, concurrency, timeoutMs, extractionBudgetMs, workers, webhooks } =
    data;
  const llm = resolveLlmOptions(data.llm);
  if (!data.persistSecrets && data.backend) {
    throw new InvalidOptionError(
      '`persistSecrets: false` cannot be used with a distributed `backend`: its workers need the header values. ' +
        'Give every process the same `secretKey` of the backend instead.',
    );
  }
  if ((engine === 'replay') !== (data.replay !== undefined)) {
    throw new InvalidOptionError(
      engine === 'replay'
        ? "`engine: 'replay'` serves pages from WARC files: name them in `replay: { files: [...] }`."
        : "`replay` names the recordings of `engine: 'replay'`: set `engine: 'replay'` too, or drop `replay`.",
    );
  }
  return {
    storeDir,
    storeMigrationCopy: data.storeMigrationCopy,
    engine,
    ...(data.replay ? { replay: data.replay } : {}),
    engineLearning,
    concurrency,
    timeoutMs,
    robotsTimeoutMs: data.robotsTimeoutMs,
    extractionBudgetMs,
    parseFileLimit: data.parseFileLimit,
    workers,
    webhooks,
    resumeJobs: data.resumeJobs,
    resumeScanMs: data.resumeScanMs,
    runSchedules: data.runSchedules,
    persistSecrets: data.persistSecrets,
    cacheMaxBytes: cache.maxBytes,
    jobResultTtlMs: data.jobResultTtlMs,
    jobs: data.jobs,
    search: data.search,
    ...(llm !== undefined ? { llm } : {}),
  };
}
