import { EventEmitter } from 'node:events';

import type { JobKind } from '@crawlkit/store';

import type { Document, ErrorResponse, JobStatus } from './v2/types.js';
import type { WarningCode } from './warning-codes.js';

/** Events of a `Crawlkit` instance, with their payloads. */
export interface CrawlkitEvents {
  /** A page was scraped (a direct scrape, or a page of a job once its result is stored). */
  page: [{ jobId?: string; document: Document }];
  /** A scrape failed. Only emitted when somebody listens (an unheard `error` event would throw). */
  error: [{ jobId?: string; url: string; error: ErrorResponse }];
  /**
   * A crawl or batch job was created in this process: a crawl with its start URL (credentials removed), a batch with
   * its number of URLs.
   */
  'job:started': [{ id: string; kind: JobKind; url?: string; urls?: number }];
  'job:completed': [{ id: string; kind: JobKind; status: JobStatus }];
  /**
   * Something the engine noticed that fails no call, by its code (`WARNING_CODES` lists them all, with when each is
   * told). Logged as a warning too.
   */
  warning: [{ code: WarningCode; message: string }];
  /**
   * A schedule fired (in this process): the crawl job of each target (null for one refused, its reason in `errors`;
   * the crawl still running for one `skipped`), and the firing time it ran for (`dueAt`, epoch ms).
   */
  'schedule:run': [
    { id: string; dueAt: number; startedAt: number; jobIds: (string | null)[]; skipped: number[]; errors: string[] },
  ];
  /**
   * The crawl of a schedule's target completed and its changes were queued for the schedule's webhook. Told once: a
   * restarted engine tells again only a crawl that completed after its start, or whose changes it had to queue again.
   */
  'schedule:changes': [{ id: string; jobId: string; target: number; queued: number }];
  /** Progress of a job after each page. */
  progress: [{ id: string; kind: JobKind; total: number; completed: number; creditsUsed: number }];
}

/** The name of a `Crawlkit` event. */
export type CrawlkitEventName = keyof CrawlkitEvents;

/** A listener of the `Crawlkit` event `K`, called with its payload. */
export type CrawlkitListener<K extends CrawlkitEventName> = (...args: CrawlkitEvents[K]) => void;

/** The events every `EventEmitter` tells of its own listeners, beside `CrawlkitEvents`. */
interface ListenerEvents {
  newListener: [eventName: string | symbol, listener: (...args: unknown[]) => void];
  removeListener: [eventName: string | symbol, listener: (...args: unknown[]) => void];
}

/** What a `Crawlkit` listens to: its own events and the emitter's `newListener` and `removeListener`. */
type Heard = CrawlkitEvents & ListenerEvents;

/** A listener of `K`, one of the `Heard` events. */
type HeardListener<K extends keyof Heard> = (...args: Heard[K]) => void;

/**
 * `EventEmitter`'s methods that take an event name, typed with `CrawlkitEvents`: a name that is not one
 * (`ck.on('page-scraped', ...)`) or a listener of another payload does not compile. `EventEmitter<CrawlkitEvents>`
 * alone does not do it: @types/node 26 takes any name there (its overloads fall back to `any[]`), so a typo compiled
 * and its listener never ran.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- EventEmitter implements these
export interface CrawlkitEmitter {
  on<K extends keyof Heard>(eventName: K, listener: HeardListener<K>): this;
  addListener<K extends keyof Heard>(eventName: K, listener: HeardListener<K>): this;
  prependListener<K extends keyof Heard>(eventName: K, listener: HeardListener<K>): this;
  once<K extends keyof Heard>(eventName: K, listener: HeardListener<K>): this;
  prependOnceListener<K extends keyof Heard>(eventName: K, listener: HeardListener<K>): this;
  off<K extends keyof Heard>(eventName: K, listener: HeardListener<K>): this;
  removeListener<K extends keyof Heard>(eventName: K, listener: HeardListener<K>): this;
  removeAllListeners(eventName?: keyof Heard): this;
  emit<K extends CrawlkitEventName>(eventName: K, ...args: CrawlkitEvents[K]): boolean;
  listenerCount<K extends keyof Heard>(eventName: K, listener?: HeardListener<K>): number;
  listeners<K extends keyof Heard>(eventName: K): HeardListener<K>[];
  rawListeners<K extends keyof Heard>(eventName: K): HeardListener<K>[];
}

/**
 * The `EventEmitter` a `Crawlkit` is, with the typed methods of the `CrawlkitEmitter` interface (merged with this
 * class: `EventEmitter` implements them, the interface only narrows their types).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class CrawlkitEmitter extends EventEmitter {}
