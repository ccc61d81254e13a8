import { clearImmediate, clearTimeout, setImmediate, setTimeout } from 'node:timers';
import type { Delivery, Store } from '@crawlkit/store';

import { openHeaders } from '../jobs/job-secrets.js';
import { answerInOperatorWords } from '../operator-words.js';

import { storeFaultDelay } from '../store-faults.js';
import { threadCpuMs } from '../thread-cpu.js';
import { attemptError, readAnswer, retryDelay } from './answer.js';
import { deliveryTerms, openSecret } from './delivery-terms.js';
import type { DispatcherOptions } from './dispatcher-options.js';
import { deliveryHeaders, WEBHOOK_IDENTITY } from './signature.js';
import { UnrecordedDeliveries, type DeliveryPatch } from './unrecorded.js';
import { droppedEvents } from './dropped-events.js';
import { leftEvents } from './left-events.js';
import { UnreadableEvents } from './unreadable.js';

/** Errors of the POST that retrying cannot fix: the target is refused by the URL policy or is not a web URL. */
const PERMANENT_CODES = new Set(['URL_BLOCKED', 'SCRAPE_UNSUPPORTED_PROTOCOL', 'SCRAPE_INVALID_URL']);

/** Longest sleep between two looks at the outbox (another process may have queued events). */
const IDLE_POLL_MS = 5_000;

/** Bytes of queued payloads kept in memory so that a job's next event is sent without reading the outbox. */
const KNOWN_MAX_BYTES = 32 * 1024 ** 2;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Delivers the webhook outbox of one or more stores in the background: one event at a time per job (so a job's
 * events arrive in order), several jobs at once, each attempt with a timeout, exponential back-off on network errors
 * and 5xx, and a give-up count. It never blocks scraping: pages only append to the outbox. Pending deliveries are
 * in the store, so they survive a restart and are picked up by the next engine on the same store.
 */
export class WebhookDispatcher {
  readonly #stores: () => Store[];
  readonly #options: DispatcherOptions;
  /** Job ids with a delivery in flight, and the promise of that send. */
  readonly #inflight = new Map<string, Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #immediate: NodeJS.Immediate | undefined;
  /** Jobs whose next event waits for a retry, and when it is due. */
  readonly #waiting = new Map<string, number>();
  /**
   * Events this process queued, by job and `seq`, while they fit in `KNOWN_MAX_BYTES`: after one is settled, the
   * next (`seq + 1`) goes at once. Reading the outbox's heads instead costs time that grows with the backlog.
   */
  readonly #known = new Map<string, Map<number, { store: Store; delivery: Delivery }>>();
  #knownBytes = 0;
  /** The last `seq` this process settled (delivered or gave up) per job. */
  readonly #settled = new Map<string, number>();
  /** Deliveries whose new state the store refused to write: they are neither re-sent nor their attempts forgotten. */
  readonly #unrecorded = new UnrecordedDeliveries();
  readonly #unreadable: UnreadableEvents;
  /** Jobs whose events this process may send (`claim`), and how to let each go. */
  readonly #claims = new Map<string, () => Promise<void>>();
  /** When the last look ended and how long it took: looks are paced so that they never take over the thread. */
  #lastLookEnd = 0;
  #lastLookMs = 0;
  #round: Promise<void> | undefined;
  #again = false;
  /** Looks at the outbox that failed in a row. */
  #lookFaults = 0;
  #closed = false;
  /** Aborted by `close()`: the attempts in flight stop. */
  readonly #stop = new AbortController();

  constructor(stores: () => Store[], options: DispatcherOptions) {
    this.#stores = stores;
    this.#options = options;
    this.#unreadable = new UnreadableEvents((code, message) => options.warning(code, message));
  }

  /**
   * Asks for a look at the outbox soon: after an event of `jobId` was queued, or a send finished. An event queued
   * behind one already in flight or waiting for its retry needs no look: it goes once that one is settled.
   */
  kick(jobId?: string): void {
    if (this.#closed) return;
    if (jobId !== undefined) {
      if (this.#inflight.has(jobId)) return;
      const waitsUntil = this.#waiting.get(jobId);
      if (waitsUntil !== undefined && waitsUntil > Date.now()) return;
      this.#waiting.delete(jobId);
    }
    if (this.#round) {
      this.#again = true;
      return;
    }
    this.#schedule(0);
  }

  /** An event was appended to `store`'s outbox by this process: sends it at once when it is its job's next. */
  queued(store: Store, delivery: Delivery): void {
    if (this.#closed) return;
    const bytes = delivery.payload.length;
    if (this.#knownBytes + bytes <= KNOWN_MAX_BYTES) {
      let jobKnown = this.#known.get(delivery.jobId);
      if (!jobKnown) {
        jobKnown = new Map<number, { store: Store; delivery: Delivery }>();
        this.#known.set(delivery.jobId, jobKnown);
      }
      jobKnown.set(delivery.seq, { store, delivery });
      this.#knownBytes += bytes;
    }
    const jobId = delivery.jobId;
    if (this.#inflight.has(jobId) || (this.#waiting.get(jobId) ?? 0) > Date.now()) return;
    const previous = this.#settled.get(jobId);
    const isNext = previous === undefined ? delivery.seq === 1 : delivery.seq === previous + 1;
    if (isNext && this.#claimed(jobId) && this.#inflight.size < (this.#options.lanes ?? 16))
      this.#lane(store, delivery);
    else this.kick(jobId);
  }

  /**
   * Before a close: sends the events queued here and not tried yet (a job's `completed`), so that a one-shot process
   * (`crawl --webhook`) does not leave them to the next engine; ends when none is left to send now and no attempt is
   * in flight, or at `closeTimeoutMs` (`close()` then stops what is left).
   */
  async flush(timeoutMs = this.#options.closeTimeoutMs): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.#closed && Date.now() < end && (this.#inflight.size > 0 || (await this.#unsent()))) {
      this.kick();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Whether an event queued here, not yet sent or tried by any process, can be sent now by this process. */
  async #unsent(): Promise<boolean> {
    const delivered = this.#stores();
    for (const [jobId, events] of this.#known) {
      const first = events.values().next().value;
      // A store whose outbox another process delivers (a Redis worker that does not lead) is left to it.
      if (!first || !delivered.includes(first.store) || (this.#waiting.get(jobId) ?? 0) > Date.now()) continue;
      const head = (await first.store.deliveries.pending(jobId))[0];
      for (const { delivery } of [...events.values()]) if (!head || delivery.seq < head.seq) this.#forget(delivery);
      const ours = head && head.attempts === 0 && head.nextAttemptAt <= Date.now() && this.#known.has(jobId);
      if (ours && (this.#claimed(jobId) || (await this.#claim(first.store, jobId)))) return true;
    }
    return false;
  }

  /**
   * Stops sending: the attempts in flight stop at once, unrecorded, so that their events stay due in a durable store
   * for the next engine (a receiver that never answers held a close for `timeoutMs`). What a store that keeps nothing
   * after the close still holds is told as a `WEBHOOK_EVENTS_DROPPED` warning, and what a durable store holds of the
   * jobs this process was sending (waiting for a retry, queued, or stopped) as a `WEBHOOK_EVENTS_LEFT` one.
   */
  async close(): Promise<void> {
    const sending = new Set([...this.#waiting.keys(), ...this.#known.keys(), ...this.#inflight.keys()]);
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#immediate) clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
    this.#stop.abort();
    await this.#round;
    await Promise.allSettled(this.#inflight.values());
    await Promise.allSettled([...this.#claims.values()].map((letGo) => letGo()));
    this.#claims.clear();
    const dropped = await droppedEvents(this.#stores());
    if (dropped) this.#options.warning('WEBHOOK_EVENTS_DROPPED', dropped);
    const left = await leftEvents(this.#stores(), sending);
    if (left) this.#options.warning('WEBHOOK_EVENTS_LEFT', left);
  }

  #claimed(jobId: string): boolean {
    return !this.#options.claim || this.#claims.has(jobId);
  }

  /** Takes the right to send the job's events here; false when another process has it. */
  async #claim(store: Store, jobId: string): Promise<boolean> {
    const letGo = await this.#options.claim!(store, jobId, () => this.#claims.delete(jobId));
    if (!letGo) return false;
    if (this.#closed || this.#claims.has(jobId)) await letGo();
    else this.#claims.set(jobId, letGo);
    return !this.#closed;
  }

  /** Lets go of the jobs that have nothing left to send here (none of them was among `seen`'s heads). */
  #letGo(seen: ReadonlySet<string>): void {
    for (const [jobId, letGo] of this.#claims) {
      if (seen.has(jobId) || this.#inflight.has(jobId) || this.#waiting.has(jobId)) continue;
      this.#claims.delete(jobId);
      void letGo();
    }
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    // A look reads the head of every job's outbox; with a large backlog that takes milliseconds of this thread, which
    // scraping shares. Leave at least four times its CPU between looks, so that delivery takes at most ~20% of it.
    ms = Math.max(ms, this.#lastLookEnd + 4 * this.#lastLookMs - performance.now());
    if (ms <= 0) {
      // Right after this turn's I/O (not the next timers phase): under CPU load every turn is long, and a job's
      // events go one at a time, so each turn saved per event counts.
      if (this.#immediate) return;
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#immediate = setImmediate(() => {
        this.#immediate = undefined;
        this.#start();
      });
      this.#immediate.unref();
      return;
    }
    if (this.#immediate) return;
    const at = Date.now() + ms;
    if (this.#timer) {
      if (at >= this.#timerAt) return;
      clearTimeout(this.#timer);
    }
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#start();
    }, ms);
    this.#timer.unref();
  }

  #start(): void {
    const started = performance.now();
    const cpuStarted = threadCpuMs();
    let failed = false;
    this.#round = this.#look()
      .then(
        () => void (this.#lookFaults = 0),
        () => void (failed = true),
      )
      .finally(() => {
        this.#lastLookEnd = performance.now();
        // A look is paced by what it takes of the thread, not by how long it waits for the store: on Redis under load
        // a look waited ~40 ms for its answer, and pacing four times that held a job's events to ~5 a second behind
        // its crawl. CPU where Node can read it (it also counts what ran in this thread meanwhile: never less than the
        // look's own), the wall time before 22.19.
        const cpuEnded = threadCpuMs();
        this.#lastLookMs =
          cpuStarted !== undefined && cpuEnded !== undefined ? cpuEnded - cpuStarted : this.#lastLookEnd - started;
        this.#round = undefined;
        if (this.#again) {
          this.#again = false;
          this.#schedule(0);
        } else if (failed) {
          // The outbox could not be read (Redis down): look again, or the events left wait for a new one forever.
          this.#schedule(storeFaultDelay(++this.#lookFaults));
        }
      });
  }

  /** Starts a send for each job whose next event is due and has none in flight; plans the next look. */
  async #look(): Promise<void> {
    const lanes = this.#options.lanes ?? 16;
    let next = Date.now() + IDLE_POLL_MS;
    /** Jobs with a pending event in this look; with `complete`, the claims of the others are let go. */
    const seen = new Set<string>();
    let complete = true;
    for (const store of this.#stores()) {
      if (this.#closed) return;
      const free = lanes - this.#inflight.size;
      if (free <= 0) {
        complete = false;
        break;
      }
      // Heads of every job with something pending, due or not: the due ones are sent, the others set the timer.
      const heads = await store.deliveries.due(Number.MAX_SAFE_INTEGER, free + this.#inflight.size);
      if (heads.length >= free + this.#inflight.size) complete = false;
      const now = Date.now();
      for (const head of heads) {
        // Not among the seen: its claim is let go, for a process that reads it.
        if (this.#unreadable.has(head.jobId)) continue;
        seen.add(head.jobId);
        if (this.#inflight.has(head.jobId) || head.seq <= (this.#settled.get(head.jobId) ?? 0)) continue;
        const dueAt = this.#unrecorded.dueAt(head);
        if (dueAt > now) {
          this.#waiting.set(head.jobId, dueAt);
          next = Math.min(next, dueAt);
          continue;
        }
        this.#waiting.delete(head.jobId);
        if (this.#inflight.size >= lanes) break;
        if (!this.#claimed(head.jobId)) {
          // Newly claimed, its head may have been sent meanwhile by the process that had it: read it again at once.
          if (await this.#claim(store, head.jobId)) this.#again = true;
          continue;
        }
        // Re-checked after the await: a lane may have started meanwhile.
        if (this.#inflight.has(head.jobId) || head.seq <= (this.#settled.get(head.jobId) ?? 0)) continue;
        this.#lane(store, head);
      }
    }
    if (complete) this.#letGo(seen);
    if (this.#inflight.size === 0 || next < Date.now() + IDLE_POLL_MS) {
      this.#schedule(Math.max(0, next - Date.now()));
    }
  }

  /** Sends `first` and then, while this process knows it, each next event of the job, one at a time. */
  #lane(store: Store, first: Delivery): void {
    const jobId = first.jobId;
    const run = async () => {
      let current: { store: Store; delivery: Delivery } | undefined = { store, delivery: first };
      // Stops once the store's outbox is no longer delivered here (a Redis process that stopped leading it).
      while (current && !this.#closed && this.#claimed(jobId) && this.#stores().includes(current.store)) {
        this.#forget(current.delivery);
        if (!(await this.#send(current.store, current.delivery))) return;
        this.#settled.set(jobId, current.delivery.seq);
        current = this.#known.get(jobId)?.get(current.delivery.seq + 1);
      }
    };
    const sending = run()
      .catch(() => undefined)
      .finally(() => {
        this.#inflight.delete(jobId);
        this.kick();
      });
    this.#inflight.set(jobId, sending);
  }

  #forget(delivery: Delivery): void {
    const jobKnown = this.#known.get(delivery.jobId);
    const entry = jobKnown?.get(delivery.seq);
    if (!jobKnown || !entry) return;
    jobKnown.delete(delivery.seq);
    this.#knownBytes -= entry.delivery.payload.length;
    if (jobKnown.size === 0) this.#known.delete(delivery.jobId);
  }

  /**
   * One attempt. Resolves true when the event is settled (delivered or given up) and recorded, false when a retry is
   * planned (or the store refused to record the outcome: it is written again later, and the event not re-sent).
   */
  async #send(store: Store, head: Delivery): Promise<boolean> {
    if (this.#unrecorded.settled(head)) return this.#unrecorded.retry(store, head.id);
    const delivery = this.#unrecorded.view(head);
    const stored = this.#unreadable.decode(store, delivery);
    if (!stored) return false;
    const attempts = delivery.attempts + 1;
    let error: string;
    let retryAfterMs: number | undefined;
    try {
      const terms = await deliveryTerms(store, delivery.jobId, stored);
      // In the words of the surface that started the job, whichever process sends it (a Redis worker leading).
      const body = JSON.stringify(answerInOperatorWords(stored.body, terms.optionNames ?? this.#options.optionNames));
      const box = this.#options.secrets?.(store);
      let headers: Record<string, string>;
      let url: string;
      try {
        url = box ? box.open(stored.url) : stored.url;
        const secret = openSecret(terms.sealedSecret, box) ?? this.#options.secret;
        headers = {
          'content-type': 'application/json',
          ...WEBHOOK_IDENTITY,
          ...(box ? openHeaders(stored.headers, box) : stored.headers),
          ...deliveryHeaders({ body, deliveryId: delivery.id, secret }),
        };
      } catch (cause) {
        // Its URL or headers cannot be opened here (no key, another key): no attempt can fix that.
        return this.#giveUp(store, { ...delivery, attempts }, cause instanceof Error ? cause.message : String(cause));
      }
      const { timeoutMs } = this.#options;
      const answer = await this.#options.post(url, body, headers, timeoutMs, terms.policy, this.#stop.signal);
      const outcome = readAnswer(url, answer);
      if (outcome.delivered) {
        return this.#unrecorded.write(store, delivery.id, { state: 'delivered', attempts, lastError: undefined });
      }
      error = outcome.error;
      retryAfterMs = outcome.retryAfterMs;
      if (!outcome.retry) return this.#giveUp(store, { ...delivery, attempts }, error);
    } catch (cause) {
      // Stopped by close(): no attempt. The event stays as it was, due at once for the next engine on the store.
      if (this.#stop.signal.aborted) return false;
      error = attemptError(cause, this.#options.timeoutMs);
      if (PERMANENT_CODES.has(errorCode(cause) ?? '')) {
        return this.#giveUp(store, { ...delivery, attempts }, error);
      }
    }
    if (attempts >= this.#options.maxAttempts) {
      return this.#giveUp(store, { ...delivery, attempts }, error);
    }
    const delay = retryDelay(attempts, retryAfterMs, this.#options);
    await this.#unrecorded.write(store, delivery.id, { attempts, nextAttemptAt: Date.now() + delay, lastError: error });
    return false;
  }

  /** Resolves true once the event is given up and that is recorded (its job error follows the record). */
  #giveUp(store: Store, delivery: Delivery, error: string): Promise<boolean> {
    const patch: DeliveryPatch = { state: 'failed', attempts: delivery.attempts, lastError: error };
    return this.#unrecorded.write(store, delivery.id, patch, () =>
      this.#options.onGiveUp(store, delivery, error).catch(() => undefined),
    );
  }
}
