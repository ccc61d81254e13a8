import { AsyncResource } from 'node:async_hooks';

import { Running, Turns, type TurnOwner } from './turns.js';

/** A scrape waiting for a slot. */
interface Waiting {
  start(): void;
  /** Stops listening to the scrape's signal. */
  stop?: () => void;
}

/**
 * The engine's scrape slots (`concurrency`): at most that many scrapes run at once, the others wait in the order they
 * came, a caller's before a job's: a scrape, search or parse whose caller waits for the answer takes the next free
 * slot ahead of the pages of crawls and batches (`background`), so that running jobs, however many, hold a call back
 * by one page's time at most, as upstream queues single scrapes ahead of crawl pages. A scrape whose signal aborts
 * while it waits leaves the line and rejects with the signal's reason; one that aborts while it runs rejects at once
 * and frees its slot (what it still does is no longer waited for). A scrape that waited runs in the async context of
 * its `add`. Each line is served in turns (`Turns`): the tenant with the fewest scrapes running first, and of its
 * jobs the one with the fewest running, so that one tenant's many pages or jobs hold another's back by a turn, not by
 * all that they queued first.
 *
 * Not p-queue: a job's every page goes through here, and p-queue's events (eight `CustomEvent`s a task), async
 * resource and priority queue were a new process's recrawl's largest cost of taking a slot (issue 41).
 */
export class ScrapeSlots {
  readonly #concurrency: number;
  #pending = 0;
  /** Scrapes running, per tenant and job: the turns go by them. */
  readonly #running = new Running();
  /** Callers' scrapes; a waiting scrape that aborts is deleted from it. */
  readonly #waiting = new Turns<Waiting>(this.#running);
  /** Jobs' pages (`background`), started when no caller waits. */
  readonly #background = new Turns<Waiting>(this.#running);
  #idle: (() => void)[] = [];

  constructor(concurrency: number) {
    if (!(concurrency >= 1)) throw new TypeError(`Expected a concurrency of at least 1, got ${concurrency}.`);
    this.#concurrency = concurrency;
  }

  /** Scrapes running. */
  get pending(): number {
    return this.#pending;
  }

  /** Scrapes waiting for a slot. */
  get size(): number {
    return this.#waiting.size + this.#background.size;
  }

  /** Scrapes of `tenant` running and waiting; without one, every scrape. */
  of(tenant?: string): { running: number; waiting: number } {
    if (tenant === undefined) return { running: this.#pending, waiting: this.size };
    return {
      running: this.#running.of(tenant),
      waiting: this.#waiting.waitingOf(tenant) + this.#background.waitingOf(tenant),
    };
  }

  /**
   * Runs `task` in a slot: at once when one is free and nobody waits, else in its turn. `background`: a job's page,
   * which waits behind every caller's scrape. `tenant` and `job`: whom it is for, which decides its turn.
   */
  add<T>(task: () => Promise<T>, options: { signal?: AbortSignal; background?: boolean } & TurnOwner = {}): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const line = options.background ? this.#background : this.#waiting;
    const owner: TurnOwner = { tenant: options.tenant, job: options.job };
    if (this.#pending < this.#concurrency && this.size === 0) return this.#run(task, signal, owner);
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting = {
        start: AsyncResource.bind(() => {
          waiting.stop?.();
          if (signal?.aborted) {
            reject(signal.reason as Error);
            this.#next();
            return;
          }
          this.#run(task, signal, owner).then(resolve, reject);
        }),
      };
      if (signal) {
        const onAbort = () => {
          line.delete(waiting);
          reject(signal.reason as Error);
          this.#settled();
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.stop = () => signal.removeEventListener('abort', onAbort);
      }
      line.add(waiting, owner);
    });
  }

  /** Resolves once no scrape runs or waits. */
  onIdle(): Promise<void> {
    if (this.#pending === 0 && this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #run<T>(task: () => Promise<T>, signal: AbortSignal | undefined, owner: TurnOwner): Promise<T> {
    this.#pending++;
    this.#running.start(owner);
    let stop: (() => void) | undefined;
    try {
      // A synchronous throw of the task becomes its rejection.
      const running = (async () => task())();
      if (!signal) return await running;
      const aborted = new Promise<never>((_resolve, reject) => {
        const onAbort = () => reject(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        stop = () => signal.removeEventListener('abort', onAbort);
      });
      return await Promise.race([aborted, running]);
    } finally {
      stop?.();
      this.#pending--;
      this.#running.end(owner);
      this.#next();
    }
  }

  /** Starts the next waiting scrape, if a slot is free. */
  #next(): void {
    if (this.#pending < this.#concurrency) {
      const next = this.#waiting.take() ?? this.#background.take();
      if (next) {
        next.start();
        return;
      }
    }
    this.#settled();
  }

  #settled(): void {
    if (this.#pending > 0 || this.size > 0 || this.#idle.length === 0) return;
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  }
}
