import type { JobRecord } from '@crawlkit/store';

import type { Document } from '../v2/types.js';

/** How a runner reports what happens to its pages; the job manager turns it into webhooks and engine events. */
export interface JobEventSink {
  /**
   * A page scraped successfully, before its result is stored. `taskKey` makes its webhook event idempotent: a page
   * scraped again after a crash does not queue a second event.
   */
  page(job: JobRecord, document: Document, taskKey: string): Promise<void>;
  /** The page's result is stored. */
  pageStored(job: JobRecord, document: Document): void;
  /** A page failed; `sourceURL` is the URL as the job knows it. */
  pageFailed(job: JobRecord, sourceURL: string, error: string, taskKey: string): Promise<void>;
  /** A bug or a store failure while handling a page. */
  internalError(job: JobRecord, error: unknown): void;
  /** A page's task is settled (stored, failed or discarded): the job's counts moved. */
  settled?(job: JobRecord): void;
}
