import type { Delivery, JobRecord, Store } from '@crawlkit/store';

import type { EventBus, JobStartedWhat } from '../event-bus.js';
import { isErrorCode } from '../error-codes.js';
import type { Document, ErrorResponse } from '../v2/types.js';
import { queueWebhookEvent, type JobWebhookEvent } from '../webhooks/outbox.js';
import type { JobSignals } from './job-watch.js';
import { jobTenant } from './job-tenant.js';
import { ProgressReports } from './progress-reports.js';

/** How the task execution reports what happens to its pages; `JobEvents` turns it into webhooks and engine events. */
export interface JobEventSink {
  /**
   * A page scraped successfully, before its result is stored. `taskKey` makes its webhook event idempotent: a page
   * scraped again after a crash does not queue a second event.
   */
  page(job: JobRecord, document: Document, taskKey: string): Promise<void>;
  /** The page's result is stored. */
  pageStored(job: JobRecord, document: Document): void;
  /** A page failed, with its error code when it has one; `sourceURL` is the URL as the job knows it. */
  pageFailed(job: JobRecord, sourceURL: string, error: PageFailure, taskKey: string): Promise<void>;
  /** A bug or a store failure while handling a page. */
  internalError(job: JobRecord, error: unknown): void;
  /** A page's task is settled (stored, failed or discarded): the job's counts moved. */
  settled?(job: JobRecord): void;
}

/** Why a page of a job failed: the message, and the error code when it has one. */
export interface PageFailure {
  code?: string;
  error: string;
  /** The error's details, told to the engine's bus (a failed extraction's model usage); not stored with the page. */
  details?: unknown;
}

/** The v2 error of a failed page, its code kept (`SCRAPE_FAILED` for a code crawlkit does not know). */
function failureResponse(failure: PageFailure): ErrorResponse {
  const code = isErrorCode(failure.code) ? failure.code : 'SCRAPE_FAILED';
  return {
    success: false,
    code,
    error: failure.error,
    ...(failure.details === undefined ? {} : { details: failure.details }),
  };
}

/**
 * What an engine's jobs tell the world: webhook events appended to the job's store outbox (handed to the dispatcher
 * through `webhookQueued`), the engine's event bus, and the signals that wake `wait()` and `watch()`.
 */
export class JobEvents {
  readonly bus: EventBus;
  readonly #signals: JobSignals;
  readonly #webhookQueued: (store: Store, delivery: Delivery) => void;
  readonly #progress: ProgressReports;

  constructor(options: {
    bus: EventBus;
    signals: JobSignals;
    /** An event is in the outbox: deliver it. */
    webhookQueued: (store: Store, delivery: Delivery) => void;
  }) {
    this.bus = options.bus;
    this.#signals = options.signals;
    this.#webhookQueued = options.webhookQueued;
    this.#progress = new ProgressReports((id, kind, counts) => this.bus.progress(id, kind, counts));
  }

  /** The job was created: a crawl from `url`, a batch of `urls` URLs. */
  async started(store: Store, job: JobRecord, what: JobStartedWhat = {}): Promise<void> {
    await this.#webhook(store, job, { event: 'started', success: true });
    this.bus.jobStarted(job.id, job.kind, what);
  }

  /** The job's record says completed. */
  async completed(store: Store, job: JobRecord): Promise<void> {
    await this.#webhook(store, job, { event: 'completed', success: true });
    this.bus.jobFinished(job.id, job.kind, 'completed');
    this.#ended(job.id);
  }

  /** The job's record says failed (best effort: the store may be what failed). */
  async failed(store: Store, job: JobRecord, error: string): Promise<void> {
    await this.#webhook(store, job, { event: 'failed', success: false, error }).catch(() => undefined);
    this.bus.jobFinished(job.id, job.kind, 'failed');
    this.#ended(job.id);
  }

  /** The job's record says cancelled (cancels send no webhook event). */
  cancelled(job: JobRecord): void {
    this.bus.jobFinished(job.id, job.kind, 'cancelled');
    this.#ended(job.id);
  }

  /** The page events of jobs living in `store`. */
  sink(store: Store): JobEventSink {
    return {
      page: async (job, document, taskKey) => {
        await this.#webhook(store, job, { event: 'page', success: true, data: [document], taskKey });
      },
      pageStored: (job, document) => {
        this.bus.page(job.id, document, jobTenant(job));
        this.#signals.signal(job.id);
      },
      pageFailed: async (job, sourceURL, failure, taskKey) => {
        const data = [{ metadata: { sourceURL } }];
        await this.#webhook(store, job, { event: 'page', success: false, data, error: failure.error, taskKey });
        this.bus.pageFailed(job.id, sourceURL, failureResponse(failure), jobTenant(job));
        this.#signals.signal(job.id);
      },
      internalError: (job, error) => this.bus.internalError(job.id, error),
      settled: (job) => {
        if (this.bus.wantsProgress) {
          this.#progress.settled(store, job).catch((error: unknown) => this.bus.internalError(job.id, error));
        }
      },
    };
  }

  #ended(id: string): void {
    this.#progress.ended(id);
    this.#signals.ended(id);
  }

  async #webhook(store: Store, job: JobRecord, event: JobWebhookEvent): Promise<void> {
    const queued = await queueWebhookEvent(store, job, event);
    if (queued) this.#webhookQueued(store, queued);
  }
}
