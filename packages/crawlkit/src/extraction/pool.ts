import { clearTimeout, setTimeout } from 'node:timers';
import { channel } from 'node:diagnostics_channel';
import type { JudgedPage, JudgeOptions, RenderVerdict } from '@crawlkit/fetcher';
import PQueue from 'p-queue';
import { Piscina } from 'piscina';
import { lazyModule } from '@crawlkit/options/lazy-module';

import { CrawlkitError } from '../errors.js';
import type { CallReply, CallResult, ExtractionCall, JudgedExtraction } from './calls.js';
import type { Extraction, ExtractionRequest } from './extraction.js';
import { cancelIfQueued, newCallState, startedOn } from './call-state.js';
import { callTimes, epochNow, measureRun } from './call-times.js';
import { diedTwice, NotStarted, replyError, WorkerDeath, workerStartError } from './pool-errors.js';
import type { CallMessage, StartedMessage } from './worker.js';
import { nextTurn } from '../next-turn.js';
import { FROM_SOURCE, SOURCE_HOOKS, WORKER_FILE } from './worker-file.js';
import { budgetCut, countAllOf, pageRunOptions, type CallWatch, type RunOptions } from './run-options.js';
import { PdfProgress } from './pdf-progress.js';

export type { CallWatch, RunOptions } from './run-options.js';
import { fromWire, toWire } from './wire.js';

export interface ExtractionPoolOptions {
  /** Worker threads; 0 runs every call on the calling thread (no time or memory isolation). */
  size: number;
  /** Heap limit of each worker thread, in MiB. */
  maxMemoryMb: number;
}

/**
 * Calls a worker holds at once: the one it runs and the next, sent ahead so that it starts it without waiting for
 * the main thread (which, on a machine whose cores the workers fill, waits its turn for a core first).
 */
const CALLS_PER_WORKER = 2;

/** The code of a call whose worker thread reached its heap limit. */
const OUT_OF_MEMORY = 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * Attempts of one call in a row, each failed before a worker started it while no thread of the pool started any call:
 * past this, its new threads cannot load (crawlkit's files deleted while it runs), not a worker stopped under another.
 */
const BARREN_ATTEMPTS = 3;

/**
 * Published when a worker thread starts a call, with a way to stop that thread: the hook the tests use to kill a
 * worker mid-page. `subscribe('crawlkit:extraction:call-start', ...)` from `node:diagnostics_channel`.
 */
export const callStartChannel = channel('crawlkit:extraction:call-start');

/** What `callStartChannel` publishes. */
export interface CallStart {
  kind: ExtractionCall['kind'];
  /** The page's URL, for page calls; the sitemap's, for a sitemap. */
  url?: string;
  threadId: number;
  /** When the worker started the call, in milliseconds since the epoch (`performance.timeOrigin` based). */
  startedAt: number;
  /** Stops the thread running the call (as a crash would). */
  terminate(): Promise<number>;
}

/** A call passed its `runLimitMs`: its worker was stopped. */
export class ExtractionCut extends Error {
  constructor(limitMs: number) {
    super(`The call ran past ${limitMs} ms and its worker thread was stopped.`);
    this.name = 'ExtractionCut';
  }
}

/**
 * The worker threads that run the CPU-bound work of pages (parsing, main content, markdown, links, images,
 * metadata, PDF text, change-tracking diffs, extractive summaries), so that no page can stall the main thread,
 * where fetches, the browser, the store, job leases and webhooks run. A piscina pool, started on first use and
 * shared by the engines of the process that have the same settings (they share the cores too).
 *
 * Hard limits: a call whose `signal` aborts (the page's `timeout`) or that passes its `runLimitMs` has its worker
 * stopped and replaced (one aborted before its worker started it is cancelled, and the worker left running); a worker
 * that reaches `maxMemoryMb` is stopped by Node and the call fails with `SCRAPE_PAGE_TOO_COMPLEX`; a worker that dies
 * otherwise (a crash) gets the call once more in a fresh thread, then the call fails with `SCRAPE_EXTRACTION_FAILED`.
 */
/**
 * The calls' code (the extractor, the document readers), loaded on the main thread only when a pool of size 0 runs
 * them here.
 */
const inThreadCalls = lazyModule(() => import('./calls.js'));

/**
 * The young generation's cap for every worker. When a worker reaches its heap limit, Node grants the running
 * garbage collection 16 MiB more and stops the thread; a scavenge that promotes more than that aborts the whole
 * process instead. V8's default young generation (up to 3 semi-spaces of 16 MiB) can; 32 MiB (semi-spaces under
 * 11 MiB) cannot, and a 1,000 x 1,000 table at 64 MiB stopped its worker cleanly in every run.
 */
const YOUNG_GENERATION_MB = 32;
/** How long the threads of a pool no engine uses are kept for the next engine of the process. */
const POOL_LINGER_MS = 5_000;

export class ExtractionPool {
  static readonly #shared = new Map<string, ExtractionPool>();

  /** The process's pool of these settings; `release()` it when done (the last release stops its threads). */
  static acquire(options: ExtractionPoolOptions): ExtractionPool {
    const key = `${options.size}:${options.maxMemoryMb}`;
    let pool = ExtractionPool.#shared.get(key);
    if (!pool) {
      pool = new ExtractionPool(options, () => ExtractionPool.#shared.delete(key));
      ExtractionPool.#shared.set(key, pool);
    }
    clearTimeout(pool.#lingering);
    pool.#users++;
    return pool;
  }

  readonly #options: ExtractionPoolOptions;
  readonly #forget: () => void;
  #users = 0;
  /** The stop of a pool no engine uses, a moment after the last release. */
  #lingering: NodeJS.Timeout | undefined;
  #pool: Piscina | undefined;
  /** Whether a worker thread of the pool has started a call (it loaded), and how many calls were started. */
  #started = false;
  #startedCalls = 0;
  /** Pools dropped because their threads could not load, and why. */
  readonly #dropped = new WeakMap<Piscina, unknown>();
  #ids = 0;
  /** Calls waiting for their worker to start them. */
  readonly #waiting = new Map<number, (started: StartedMessage) => void>();
  /** The calls sent to the workers: at most `CALLS_PER_WORKER` a worker; the others wait here, in order. */
  readonly #turns: PQueue;

  private constructor(options: ExtractionPoolOptions, forget: () => void) {
    this.#options = options;
    this.#forget = forget;
    this.#turns = new PQueue({ concurrency: Math.max(1, options.size * CALLS_PER_WORKER) });
  }

  get size(): number {
    return this.#options.size;
  }

  /** Starts the worker threads if they are not running yet, so that they load while a first page is fetched. */
  warm(): void {
    if (this.#options.size > 0) this.#piscina();
  }

  /** Runs a call off the main thread (on it with `size: 0`). */
  async run<T extends ExtractionCall>(call: T, options: RunOptions = {}): Promise<CallResult<T>> {
    // The fetch and store work of a page and the clone of its text to a worker are turns of their own: timers
    // (lease renewals, webhooks) run between them.
    const calledAt = options.onTimes ? epochNow() : 0;
    await nextTurn();
    options.signal?.throwIfAborted();
    const reply = await this.#settle(call, options);
    if (options.onTimes && reply.run) options.onTimes(callTimes(calledAt, reply.run, epochNow()));
    if (!reply.ok) throw replyError(reply);
    return reply.value as CallResult<T>;
  }

  /**
   * A page's extraction. It may take `request.budgetMs` from its start: the worker cuts it itself when the markdown
   * conversion passes it, and a worker still busy a moment later is stopped; either way the page's plain text comes
   * back (`cut`, with a warning), computed in a worker too; a PDF's, the pages its worker had read (`PdfProgress`).
   * `signal` (the page's timeout) stops all.
   */
  async extract(request: ExtractionRequest, signal?: AbortSignal, watch: CallWatch = {}): Promise<Extraction> {
    const progress = PdfProgress.of(request, this.#options.size);
    try {
      const options = pageRunOptions(request, signal, watch);
      return await this.run({ kind: 'extract', ...request }, progress ? { ...options, progress } : options);
    } catch (error) {
      if (!(error instanceof ExtractionCut)) throw error;
      const read = progress?.read();
      if (read) {
        const mode = request.settings.pdf ? (request.settings.pdf.mode ?? 'auto') : 'auto';
        return this.run({ kind: 'pdfCut', ...read, mode, budgetMs: request.budgetMs! }, signal ? { signal } : {});
      }
      const cut = budgetCut(request);
      if (cut) throw cut;
      return this.run({ kind: 'plainText', ...request }, signal ? { signal } : {});
    } finally {
      progress?.close();
    }
  }

  /**
   * The render judge of `@crawlkit/fetcher`, run off the main thread: it reads the whole page, so it costs as much
   * as a parse. `signal` (the request's timeout) stops it.
   */
  judge(page: JudgedPage, options: JudgeOptions = {}): Promise<RenderVerdict> {
    return this.run({ kind: 'judge', page, ...countAllOf(options) }, options.signal ? { signal: options.signal } : {});
  }

  /**
   * The render judge's verdict on a page fetched over HTTP and, when it finds nothing missing, the page's extraction
   * (`request`), in one call: the page crosses to the worker and is decoded once. The extraction's limits are those
   * of `extract()`; a call cut by them answers the verdict alone (the extraction is then made by `extract()`).
   */
  async judgeAndExtract(
    page: JudgedPage,
    request: ExtractionRequest,
    judging: JudgeOptions = {},
    watch: CallWatch = {},
  ): Promise<JudgedExtraction> {
    const { signal } = judging;
    try {
      return await this.run(
        { kind: 'judgeAndExtract', page, extraction: request, ...countAllOf(judging) },
        pageRunOptions(request, signal, watch),
      );
    } catch (error) {
      if (!(error instanceof ExtractionCut)) throw error;
      return { verdict: await this.judge(page, judging) };
    }
  }

  /**
   * One user is done with the pool; `POOL_LINGER_MS` after the last, the worker threads stop. An engine of the process
   * made in that time (a test suite's engine per test) takes the running threads: a thread takes ~200 ms to start.
   * Idle threads and the timer do not keep the process alive; a pool still at a call when released stops at once.
   */
  release(): Promise<void> {
    if (--this.#users > 0) return Promise.resolve();
    // A thread still at a call holds the process: stopped at once, as the engine that closed would have it
    if (this.#turns.pending + this.#turns.size > 0) return this.#stop();
    this.#lingering = setTimeout(() => void this.#stop(), POOL_LINGER_MS).unref();
    return Promise.resolve();
  }

  async #stop(): Promise<void> {
    this.#forget();
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy().catch(() => undefined);
  }

  async #settle(call: ExtractionCall, options: RunOptions): Promise<CallReply> {
    if (this.#options.size === 0) {
      options.onStart?.();
      const { settleCall } = await inThreadCalls();
      const { value, run } = await measureRun(() => settleCall(call));
      return { ...value, run };
    }
    try {
      return await this.#attempt(call, options);
    } catch (error) {
      if (!(error instanceof WorkerDeath)) throw error;
      // The worker died under the call (not by our hand, not out of memory): once more, in a fresh thread.
      try {
        return await this.#attempt(call, options);
      } catch (again) {
        if (!(again instanceof WorkerDeath)) throw again;
        throw diedTwice(again);
      }
    }
  }

  /**
   * Runs a call once in a worker: it waits its turn in `#turns`, then goes to a worker, which may still be running
   * another call (the worker starts it as soon as that one ends, without waiting for the main thread). A call stopped
   * under it before it started (its worker stopped for another call, or out of memory) is sent again.
   */
  async #attempt(call: ExtractionCall, options: RunOptions): Promise<CallReply> {
    for (let barren = 0; ;) {
      const startedCalls = this.#startedCalls;
      const reply = await this.#turns.add(
        () => this.#dispatch(call, options),
        options.signal ? { signal: options.signal } : {},
      );
      if (!(reply instanceof NotStarted)) return reply;
      barren = this.#startedCalls === startedCalls ? barren + 1 : 0;
      if (barren >= BARREN_ATTEMPTS) throw workerStartError(reply.cause);
    }
  }

  async #dispatch(call: ExtractionCall, options: RunOptions): Promise<CallReply | NotStarted> {
    const pool = this.#piscina();
    const id = ++this.#ids;
    const state = newCallState();
    const cut = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, cut.signal]) : cut.signal;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    this.#waiting.set(id, ({ threadId, startedAt }) => {
      this.#waiting.delete(id);
      options.onStart?.();
      if (options.runLimitMs !== undefined && !settled) {
        const limit = options.runLimitMs;
        timer = setTimeout(() => cut.abort(new ExtractionCut(limit)), limit);
      }
      if (callStartChannel.hasSubscribers) {
        const start: CallStart = {
          kind: call.kind,
          threadId,
          startedAt,
          terminate: () => this.#terminate(threadId),
        };
        if ('page' in call) start.url = call.page.url;
        else if (call.kind === 'sitemap') start.url = call.url;
        callStartChannel.publish(start);
      }
    });
    // Piscina is given no signal: it would stop a worker holding an aborted call that had not started, and the call
    // running there with it. An aborted call is cancelled if its worker has not started it, else that worker is
    // stopped.
    let stop: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      stop = () => {
        if (!cancelIfQueued(state)) void this.#terminate(startedOn(state));
        reject(signal.reason as Error);
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    const progress = options.progress?.next();
    const message: CallMessage = { id, call: toWire(call), state, ...(progress ? { progress } : {}) };
    const running = pool.run(message, progress ? { transferList: [progress] } : {}).then(fromWire<CallReply>);
    // Settled after an abort too (cancelled, or its worker stopped): nobody waits for it then.
    running.catch(() => undefined);
    try {
      const reply = await Promise.race([running, aborted]);
      // The start message comes over the worker's own port, the result over piscina's: the start may still be on
      // its way, and its subscribers should see it.
      settled = true;
      return reply;
    } catch (error) {
      if (signal.aborted) throw signal.reason as Error;
      if (startedOn(state) === undefined && (this.#pool === pool || this.#dropped.has(pool))) {
        // No worker of the pool has started a call, and none was stopped under one: they cannot load, and the call
        // sent again would fail again until its timeout (bundled into an app's file, crawlkit's worker files are not
        // beside it).
        // A dropped pool's calls fail with its stop: why its threads failed is what the caller needs.
        const cause = this.#dropped.has(pool) ? this.#dropped.get(pool) : error;
        if (!this.#started && (error as { code?: unknown }).code !== OUT_OF_MEMORY) throw workerStartError(cause);
        // Its worker stopped before it started the call (under another call): it is sent again, to a working thread.
        return new NotStarted(cause);
      }
      if ((error as { code?: unknown }).code === OUT_OF_MEMORY) {
        throw new CrawlkitError(
          'SCRAPE_PAGE_TOO_COMPLEX',
          `The page needed more than workers.maxMemoryMb (${this.#options.maxMemoryMb} MiB) of memory to extract: ` +
            'its worker thread was stopped and replaced. Raise `workers.maxMemoryMb` for pages this large.',
          { cause: error },
        );
      }
      throw new WorkerDeath(error);
    } finally {
      clearTimeout(timer);
      if (stop) signal.removeEventListener('abort', stop);
      if (!settled) this.#waiting.delete(id);
    }
  }

  /** Stops a worker thread (piscina fails its calls and starts another). */
  #terminate(threadId: number | undefined): Promise<number> {
    // only a thread that started a call is stopped (its start message may still be on its way)
    if (threadId !== undefined) this.#started = true;
    const thread = threadId === undefined ? undefined : this.#pool?.threads.find((t) => t.threadId === threadId);
    return thread?.terminate() ?? Promise.resolve(0);
  }

  #piscina(): Piscina {
    if (this.#pool) return this.#pool;
    const { size, maxMemoryMb } = this.#options;
    const pool = new Piscina({
      filename: WORKER_FILE.href,
      // One thread starts at once, the others when calls queue behind it: threads starting together on a small
      // machine slow the first page (they load their modules on the cores its fetch and extraction need).
      minThreads: Math.min(1, size),
      maxThreads: size,
      // Started threads are kept (they do not keep the process alive): a page should not wait for a thread to start.
      idleTimeout: Infinity,
      concurrentTasksPerWorker: CALLS_PER_WORKER,
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      ...(FROM_SOURCE ? { execArgv: [...process.execArgv, '--import', SOURCE_HOOKS] } : {}),
    });
    pool.on('message', (message: StartedMessage) => {
      if (typeof message?.crawlkitCallStarted === 'number') {
        this.#started = true;
        this.#startedCalls++;
        this.#waiting.get(message.crawlkitCallStarted)?.(message);
      }
    });
    // A thread failed outside any call: piscina replaces it, unless it failed as it loaded (crawlkit's files deleted
    // while it runs); then it starts no other, and with none left calls would wait in it for good. Such a pool is
    // dropped: its calls are sent again to a new pool, whose threads fail them at once (`BARREN_ATTEMPTS`).
    pool.on('error', (error: unknown) => {
      if (pool.threads.length > 0 || this.#pool !== pool) return;
      this.#pool = undefined;
      this.#dropped.set(pool, error);
      void pool.destroy().catch(() => undefined);
    });
    this.#pool = pool;
    return pool;
  }
}
