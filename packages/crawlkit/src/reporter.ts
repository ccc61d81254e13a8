import type { EventEmitter } from 'node:events';

import { redactUrl } from '@crawlkit/fetcher';

import { toErrorResponse } from './errors.js';
import type { CrawlkitEvents } from './events.js';
import type { JobNotifications } from './jobs/job-manager.js';
import type { Logger } from './logger.js';
import type { Document } from './v2/types.js';

/**
 * Turns what the engine does into `Crawlkit` events and log lines, and counts the credits of every page it reports
 * (direct scrapes and job pages alike).
 */
export class Reporter {
  readonly #events: EventEmitter<CrawlkitEvents>;
  readonly #log: Logger;
  #credits = 0;
  #tokens = 0;
  #lastSuccess: number | undefined;

  constructor(events: EventEmitter<CrawlkitEvents>, log: Logger) {
    this.#events = events;
    this.#log = log;
  }

  /** Credits of every page reported so far. */
  get credits(): number {
    return this.#credits;
  }

  /** Model tokens of every page reported so far. */
  get tokens(): number {
    return this.#tokens;
  }

  /** When the last page was reported (epoch ms). */
  get lastSuccess(): number | undefined {
    return this.#lastSuccess;
  }

  /** Credits of work that is not a page (a map). */
  charge(credits: number): void {
    this.#credits += credits;
  }

  /** A page was scraped (directly, or stored by a job). */
  page(jobId: string | undefined, document: Document): void {
    this.#credits += document.metadata.creditsUsed ?? 0;
    this.#tokens += (document.metadata.llmUsage as { totalTokens?: number } | undefined)?.totalTokens ?? 0;
    this.#lastSuccess = Date.now();
    this.#events.emit('page', jobId ? { jobId, document } : { document });
  }

  /** A page or the engine failed: a debug line for a page, an error line otherwise; the `error` event if heard. */
  error(jobId: string | undefined, url: string, error: unknown): void {
    const response = toErrorResponse(error);
    const where = jobId ? `job ${jobId}: ` : '';
    if (url) this.#log.debug(`${where}${redactUrl(url)} failed: ${response.error}`);
    else this.#log.error(`${where}${response.error}`);
    // An `error` event nobody listens to would throw.
    if (this.#events.listenerCount('error') === 0) return;
    this.#events.emit('error', { ...(jobId ? { jobId } : {}), url: url && redactUrl(url), error: response });
  }

  /** Something noticed that fails no call: a warning line and the `warning` event. */
  warning(code: string, message: string): void {
    this.#log.warn(message);
    this.#events.emit('warning', { code, message });
  }

  /** What the job manager reports, as engine events. */
  jobNotifications(): JobNotifications {
    return {
      page: (jobId, document) => this.page(jobId, document),
      pageError: (jobId, url, error) => this.error(jobId, url, { code: 'SCRAPE_FAILED', message: error }),
      started: (id, kind) => {
        this.#log.debug(`${kind} ${id} started`);
        this.#events.emit('job:started', { id, kind });
      },
      finished: (id, kind, status) => {
        this.#log.debug(`${kind} ${id} ${status}`);
        this.#events.emit('job:completed', { id, kind, status });
      },
      progress: (id, kind, counts) => this.#events.emit('progress', { id, kind, ...counts }),
      internalError: (jobId, error) => this.error(jobId, '', error),
    };
  }
}
