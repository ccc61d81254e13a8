import { clearTimeout, setTimeout } from 'node:timers';
import type { BrowserSlotWait } from '@crawlkit/fetcher';

import type { LlmProgress } from '../llm/llm-service.js';

/**
 * How early an engine's own timeout may end the page's time and still be the page's timeout. The engine's clock starts
 * with the fetch, after the page's, but its budget is the page's time left rounded to the millisecond
 * (`remaining()`), and a timer fires up to a millisecond before `performance.now()` reaches its time: an engine's
 * timer could end half a millisecond and more before the page's, whose message (with its stage) was then lost to the
 * engine's bare "Scrape timed out after 3000 ms." (one of six pages in the crawler traps day).
 */
const SPENT_TOLERANCE_MS = 5;

/** The share of a direct scrape's `timeout` it may spend waiting for one of the engine's slots (reference §3.3). */
export const SLOT_WAIT_SHARE = 2 / 3;

/** What a direct scrape that waited its share of its `timeout` for a slot says: the stage its time passed in. */
export function slotWaitTimeoutMessage(timeoutMs: number, waitedMs: number): string {
  return (
    `Scrape timed out after ${timeoutMs} ms while waiting for a scrape slot: it waited ${Math.round(waitedMs)} ms, ` +
    'the two thirds of its `timeout` a scrape may wait, while the engine ran as many scrapes as its `concurrency` ' +
    'allows. Raise `timeout`, send fewer scrapes at once, or raise `concurrency` in `new Crawlkit()`.'
  );
}

/** A model call answering: when it started, and the wait before its retry if it is in one. */
interface ModelCall {
  since: number;
  retry?: { until: number; waitMs: number; why: string };
}

/**
 * A scrape's `timeout`: one timer for fetch, extraction and formats together, suspended while the scrape waits for its
 * host's slot and paused while it waits for one of the browser's pages (`browser.maxConcurrentPages`) or its model
 * tasks wait for the engine's `llm.concurrency` slots with none of them answering (waits for a shared resource, no part
 * of the page: one slot and a batch of forty pages lost most of them to the timeout in the line, each page's own work
 * fitting it many times; twenty browser pages at an 8 s timeout lost 14–17 to the four browser pages). It knows
 * where the scrape is, for the message of its timeout: fetching, waiting for an extraction worker, extracting, or
 * computing the formats after. A page that waited its whole timeout in the extraction queue (every worker busy with
 * other pages) is told so, not told that it is too large.
 */
export class Deadline {
  /** The page's `timeout`, as its messages name it. */
  readonly timeoutMs: number;
  /** What this attempt has of it: the whole, less what a job's earlier attempts of the page took. */
  readonly budgetMs: number;
  /** Aborted when the timeout passes or the caller's signal aborts. */
  readonly signal: AbortSignal;
  readonly #abort = new AbortController();
  readonly #caller: AbortSignal | undefined;
  /** Passes the caller's abort on; removed when the scrape ends. */
  readonly #onCallerAbort: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** When the page's time started (`performance.now()`), for the timer: it counts from there. */
  #armedAt = 0;
  /** Waiting for the host's slot: the timer does not expire the page meanwhile. */
  #suspended = false;
  /** When the clock was paused for the model's slots (`performance.now()`); undefined while it runs. */
  #pausedAt: number | undefined;
  /** Whether the timer fired. */
  #expired = false;
  /** The stage the page is in, which its timeout names (the model's calls are told apart by `#modelCalls`). */
  #phase: 'fetch' | 'render' | 'actions' | 'extract' | 'formats' = 'fetch';
  /** When the fetch started (after the wait for the host's slot). */
  #started = Date.now();
  /** When the page was handed to the extraction pool. */
  #queued = 0;
  /** When a worker started its extraction; 0 while it waits for one. */
  #running = 0;
  /** The page's model tasks waiting for a slot, and those answering with when each started. */
  readonly #modelWaits = new Set<object>();
  readonly #modelCalls = new Set<ModelCall>();
  /** Whether the fetch waits for a browser page. */
  #browserWait = false;
  /** What the model tasks were doing when the timer fired (they end, aborted, before the message is asked for). */
  #modelAtExpiry: string | undefined;

  constructor(timeoutMs: number, caller?: AbortSignal, spentMs = 0) {
    this.timeoutMs = timeoutMs;
    this.budgetMs = Math.max(1, timeoutMs - spentMs);
    this.#caller = caller;
    this.signal = this.#abort.signal;
    // A listener on the caller's signal, not `AbortSignal.any`: a job's signal outlives its thousands of pages, and
    // each composite signal made of it is tracked by weak references (a new process's recrawl spent more on those
    // than on its deadlines).
    if (caller?.aborted) this.#abort.abort(caller.reason);
    else if (caller) {
      this.#onCallerAbort = () => this.#abort.abort(caller.reason);
      caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
    this.#armedAt = performance.now();
    this.#arm(this.budgetMs);
  }

  /** Whether the scrape stopped because its timeout passed (not because its caller aborted it). */
  get timedOut(): boolean {
    return this.#expired && !this.#caller?.aborted;
  }

  /**
   * Whether the page's time has run out, whether or not its timer fired yet. An engine given the page's timeout
   * (its own clock started with the fetch, after the page's) can end first: the page's timer, armed before a wait
   * for its host's slot, fires early and is armed again, and lands late (`SPENT_TOLERANCE_MS`).
   */
  get spent(): boolean {
    if (this.#caller?.aborted) return false;
    if (this.#expired) return true;
    if (this.#suspended || this.#pausedAt !== undefined) return false;
    return performance.now() - this.#armedAt >= this.budgetMs - SPENT_TOLERANCE_MS;
  }

  /**
   * The page's time this attempt took so far: from when its time started (after its host's slot) to now, its waits
   * for shared slots (the browser's pages, the model's) left out; its whole budget once it timed out.
   */
  get usedMs(): number {
    if (this.#expired) return this.budgetMs;
    if (this.#suspended) return 0;
    return Math.min(this.budgetMs, Math.max(0, (this.#pausedAt ?? performance.now()) - this.#armedAt));
  }

  /** The time from now is no part of the page (a wait for its host's slot): the timer does not expire it. */
  suspend(): void {
    this.#suspended = true;
  }

  /**
   * The page's time starts again now, whole. The timer armed before is kept (most pages take their host's slot at
   * once, and a timer cleared and made again for each of them cost more than one armed again when it fires early).
   */
  resume(): void {
    this.#suspended = false;
    this.#started = Date.now();
    this.#armedAt = performance.now();
    if (this.#timer === undefined) this.#arm(this.budgetMs);
  }

  /**
   * The page's request is held back as it leaves (its host began a rest after its slot was taken): the signal
   * aborts, so the engine sends nothing, and the page is no timeout.
   */
  holdBack(): void {
    this.#abort.abort(new DOMException('The request was held back: its host began a rest.', 'AbortError'));
  }

  /** The scrape ended: the timer is cleared (a timer per scrape would otherwise stay armed for its whole timeout). */
  clear(): void {
    clearTimeout(this.#timer);
    if (this.#onCallerAbort) this.#caller!.removeEventListener('abort', this.#onCallerAbort);
  }

  fetching(): void {
    this.#phase = 'fetch';
  }

  /** The browser runs the page's actions (`PageRequest.onActions`). */
  readonly actions = (): void => {
    this.#phase = 'actions';
  };

  /** The page goes to the extraction pool. */
  extracting(): void {
    this.#phase = 'extract';
    this.#queued = Date.now();
    this.#running = 0;
  }

  /** A worker started the page's extraction. */
  readonly running = (): void => {
    this.#running = Date.now();
  };

  formats(): void {
    this.#phase = 'formats';
  }

  /**
   * A progress hook for one model task of the page (`LlmProgress`): where it is, for the timeout's message. Each task
   * takes its own: two at once (a summary beside a json) are told apart.
   */
  modelTask(): Required<LlmProgress> {
    const wait = {};
    const call: ModelCall = { since: 0 };
    return {
      queued: () => {
        this.#modelWaits.add(wait);
        this.#pauseForWaits();
      },
      running: () => {
        this.#modelWaits.delete(wait);
        call.since = Date.now();
        this.#modelCalls.add(call);
        this.#pauseForWaits();
      },
      retryWait: (waitMs, why) => {
        call.retry = { until: Date.now() + waitMs, waitMs, why };
      },
      done: () => {
        this.#modelWaits.delete(wait);
        this.#modelCalls.delete(call);
        this.#pauseForWaits();
      },
    };
  }

  /** The fetch's hooks for its wait for a browser page (`PageRequest.browserSlot`): the clock stops meanwhile. */
  browserSlot(): BrowserSlotWait {
    return {
      waiting: () => {
        this.#browserWait = true;
        this.#pauseForWaits();
      },
      acquired: () => {
        this.#browserWait = false;
        // The browser has a page for the load: what follows is its rendering.
        if (this.#phase === 'fetch') this.#phase = 'render';
        this.#pauseForWaits();
      },
    };
  }

  /**
   * The clock stops while the fetch waits for a browser page, or while a model task of the page waits for a slot and
   * none answers, and goes on, with the time left when it stopped, once the wait ends or a call answers. A call that
   * answers counts (a hung model still ends the page); the caller's abort ends a waiting page at once all the same
   * (the signal follows it, timer or not).
   */
  #pauseForWaits(): void {
    const paused = this.#browserWait || (this.#modelWaits.size > 0 && this.#modelCalls.size === 0);
    if (paused === (this.#pausedAt !== undefined) || this.#expired) return;
    const now = performance.now();
    if (paused) {
      this.#pausedAt = now;
      return;
    }
    this.#armedAt += now - this.#pausedAt!;
    this.#pausedAt = undefined;
    if (this.#timer === undefined && !this.#suspended) this.#arm(Math.max(0, this.#armedAt + this.budgetMs - now));
  }

  /**
   * What the page's model calls are doing, for the timeout's message, if one is. A page whose model tasks only wait
   * for slots cannot time out (its clock is paused), so only a call answering is told.
   */
  #modelNote(head: string): string | undefined {
    if (!this.#modelCalls.size) return undefined;
    const now = Date.now();
    const stage = `${head} while extracting with the language model`;
    const retrying = [...this.#modelCalls].find((call) => call.retry && call.retry.until > now)?.retry;
    if (retrying) {
      const busy = retrying.why.startsWith('429')
        ? ', or lower `llm.concurrency` so fewer calls reach the server at once'
        : '';
      return (
        `${stage}: its server answered ${retrying.why}, and the page ran out of time while waiting ` +
        `${retrying.waitMs} ms to ask again. Raise \`timeout\`${busy}.`
      );
    }
    const longest = Math.max(...[...this.#modelCalls].map((call) => now - call.since));
    return `${stage}: it had not answered after ${longest} ms. Raise \`timeout\` for a slow model, or check the model server.`;
  }

  /** What the page's timeout says: where its time went, by the stage it was in when it passed. */
  timeoutMessage(): string {
    const head = `Scrape timed out after ${this.timeoutMs} ms`;
    if (this.#phase === 'fetch') return `${head} while fetching the page.`;
    if (this.#phase === 'render') return `${head} while rendering the page in the browser.`;
    if (this.#phase === 'actions') return `${head} while running the page's actions in the browser.`;
    if (this.#phase === 'formats') {
      return this.#modelAtExpiry ?? `${head} while computing the formats after extraction.`;
    }
    const now = Date.now();
    const fetch = `the fetch took ${this.#queued - this.#started} ms`;
    if (!this.#running) {
      return (
        `${head} while waiting for an extraction worker: the page waited ${now - this.#queued} ms (${fetch}); ` +
        'every worker thread was busy with other pages or still starting. Raise `timeout`, or scrape fewer pages ' +
        "at once (`concurrency` in `new Crawlkit()`, or a job's `maxConcurrency`)."
      );
    }
    return (
      `${head} while extracting the page: extraction of the page was cut after ${now - this.#running} ms (${fetch}, ` +
      `then ${this.#running - this.#queued} ms waiting for a worker) and its worker thread stopped. Raise ` +
      '`timeout` for pages this large.'
    );
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#due(), ms);
  }

  /** The timer fired: the page expires, unless its time started again since (then it waits for what is left). */
  #due(): void {
    this.#timer = undefined;
    // Armed again when the page's time goes on: whole after its host's slot, what is left after the model's slots.
    if (this.#suspended || this.#pausedAt !== undefined) return;
    const left = this.#armedAt + this.budgetMs - performance.now();
    if (left > 0) {
      this.#arm(left);
      return;
    }
    this.#expired = true;
    this.#modelAtExpiry = this.#modelNote(`Scrape timed out after ${this.timeoutMs} ms`);
    this.#abort.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }
}
