import { redactUrl } from '@crawlkit/fetcher';
import type { JobKind } from '@crawlkit/store';

import { toErrorResponse } from './errors.js';
import type { CrawlkitEmitter, CrawlkitEvents, CrawlkitListener } from './events.js';
import type { Logger } from './logger.js';
import type { Document, ErrorResponse, JobStatus } from './v2/types.js';
import type { TellWarning } from './warning-codes.js';

/** What a job's `job:started` event tells beside its id and kind: a crawl's start URL, a batch's number of URLs. */
export interface JobStartedWhat {
  url?: string | undefined;
  urls?: number | undefined;
}

/**
 * Tenants whose own usage an engine keeps (`usageOf(tenant)`), the most recently active ones: an app giving each of its
 * users a `tenant` would otherwise grow the map for as long as it runs. ~150 bytes each, so ~1.5 MB at most.
 */
export const MAX_TENANT_USAGES = 10_000;

/**
 * The one bus of an engine's events: what direct scrapes and jobs (in this process, or on a worker of the cluster)
 * report goes here, typed, and leaves as `Crawlkit` events (`CrawlkitEvents`) and log lines. A failed page keeps its
 * error code end to end. It also counts the credits of every page it is told of.
 */
export class EventBus {
  readonly #events: CrawlkitEmitter;
  readonly #log: Logger;
  /**
   * What every page and charge so far used; `#tenants` the same per tenant (`CallOptions.tenant`, a job's), the
   * least recently active first, up to `MAX_TENANT_USAGES`.
   */
  readonly #total: Usage = { credits: 0, tokens: 0 };
  readonly #tenants = new Map<string, Usage>();
  #tenantsDropped = false;

  constructor(events: CrawlkitEmitter, log: Logger) {
    this.#events = events;
    this.#log = log;
  }

  /**
   * Credits and model tokens of the pages and charges reported so far, and when the last page was (epoch ms): a
   * tenant's own, or without one everything's.
   */
  usageOf(tenant?: string): Readonly<Usage> {
    if (tenant === undefined) return this.#total;
    return this.#tenants.get(tenant) ?? { credits: 0, tokens: 0 };
  }

  /** How many tenants' own usage is kept (`MAX_TENANT_USAGES` at most). */
  get tenantsKept(): number {
    return this.#tenants.size;
  }

  /** Credits of work that is not a page (a map, a search beside the pages it scrapes), for `tenant`. */
  charge(credits: number, tenant?: string): void {
    if (credits === 0) return;
    for (const usage of this.#usages(tenant)) usage.credits += credits;
  }

  /** A page was scraped (directly, or stored by a job), for `tenant` (the caller's, the job's). */
  page(jobId: string | undefined, document: Document, tenant?: string): void {
    const now = Date.now();
    for (const usage of this.#usages(tenant)) {
      usage.credits += document.metadata.creditsUsed ?? 0;
      usage.tokens += totalTokens(document.metadata.llmUsage);
      usage.lastSuccess = now;
    }
    this.#emit('page', jobId ? { jobId, document } : { document });
  }

  /** A page failed, with its error (its code kept): a debug line, and the `error` event when someone listens. */
  pageFailed(jobId: string | undefined, url: string, error: ErrorResponse, tenant?: string): void {
    // A model answer that could not be used (LLM_EXTRACTION_FAILED) still spent its tokens.
    const tokens = totalTokens((error.details as { usage?: unknown } | undefined)?.usage);
    if (tokens > 0) for (const usage of this.#usages(tenant)) usage.tokens += tokens;
    const where = jobId ? `job ${jobId}: ` : '';
    this.#log.debug(`${where}${redactUrl(url)} failed: ${error.error}`);
    this.#emitError({ ...(jobId ? { jobId } : {}), url: redactUrl(url), error });
  }

  /** A bug or a store failure outside any page: an error line, and the `error` event when someone listens. */
  internalError(jobId: string | undefined, error: unknown): void {
    const response = toErrorResponse(error);
    this.#log.error(`${jobId ? `job ${jobId}: ` : ''}${response.error}`);
    this.#emitError({ ...(jobId ? { jobId } : {}), url: '', error: response });
  }

  /**
   * Something noticed that fails no call: a warning line and the `warning` event. Bound, so that it is handed on as
   * it is to what tells warnings (`TellWarning`).
   */
  readonly warning: TellWarning = (code, message) => {
    this.#log.warn(message);
    this.#emit('warning', { code, message });
  };

  /** A job was created: a crawl's start URL (its credentials removed here), a batch's number of URLs. */
  jobStarted(id: string, kind: JobKind, what: JobStartedWhat = {}): void {
    this.#log.debug(`${kind} ${id} started`);
    const url = what.url === undefined ? {} : { url: redactUrl(what.url) };
    this.#emit('job:started', { id, kind, ...url, ...(what.urls === undefined ? {} : { urls: what.urls }) });
  }

  jobFinished(id: string, kind: JobKind, status: JobStatus): void {
    this.#log.debug(`${kind} ${id} ${status}`);
    this.#emit('job:completed', { id, kind, status });
  }

  scheduleRun(run: CrawlkitEvents['schedule:run'][0]): void {
    this.#log.debug(`schedule ${run.id} fired: ${run.jobIds.join(', ')}`);
    this.#emit('schedule:run', run);
  }

  scheduleChanges(changes: CrawlkitEvents['schedule:changes'][0]): void {
    this.#emit('schedule:changes', changes);
  }

  /** The job's counts after a page settled. */
  progress(id: string, kind: JobKind, counts: { total: number; completed: number; creditsUsed: number }): void {
    this.#emit('progress', { id, kind, ...counts });
  }

  /** Whether anyone listens for `progress` (its counts cost a store read per page). */
  get wantsProgress(): boolean {
    return this.#events.listenerCount('progress') > 0;
  }

  /**
   * The totals, and the tenant's own when there is one, made the most recently active; past `MAX_TENANT_USAGES`
   * tenants, the least recently active one's is dropped (the totals keep what it used).
   */
  #usages(tenant: string | undefined): Usage[] {
    if (tenant === undefined) return [this.#total];
    const own = this.#tenants.get(tenant) ?? { credits: 0, tokens: 0 };
    this.#tenants.delete(tenant);
    this.#tenants.set(tenant, own);
    if (this.#tenants.size > MAX_TENANT_USAGES) {
      this.#tenants.delete(this.#tenants.keys().next().value!);
      if (!this.#tenantsDropped) {
        this.#tenantsDropped = true;
        this.warning(
          'TENANT_USAGE_DROPPED',
          `More than ${MAX_TENANT_USAGES} tenants used this engine: getCreditUsage({ tenant }) and getTokenUsage({ tenant }) ` +
            'of the least recently active ones count from 0 again (the totals, and credits held to a creditLimit in the ' +
            'store, keep everything).',
        );
      }
    }
    return [this.#total, own];
  }

  #emitError(payload: CrawlkitEvents['error'][0]): void {
    // An `error` event nobody listens to would throw.
    if (this.#events.listenerCount('error') > 0) this.#emit('error', payload);
  }

  /**
   * Calls each listener in turn, as `emit` does, except that a listener that throws is the app's bug, not the
   * work's: it neither stops the listeners after it nor reaches the scrape or the job that emitted (the page is still
   * returned or stored, its links followed). Its error is thrown again on a tick of its own, where Node reports what
   * nobody can catch (`uncaughtException`), as for a listener of an event a socket emits.
   */
  #emit<K extends keyof CrawlkitEvents>(event: K, ...args: CrawlkitEvents[K]): void {
    for (const listener of this.#events.rawListeners(event) as CrawlkitListener<K>[]) {
      try {
        listener.apply(this.#events, args);
      } catch (error) {
        this.#log.error(`a listener of the ${String(event)} event threw: ${String(error)}`);
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }
}

/** Credits and model tokens used, and when the last page was scraped (epoch ms). */
export interface Usage {
  credits: number;
  tokens: number;
  lastSuccess?: number;
}

/** The tokens of a model usage record (`metadata.llmUsage`, an error's `details.usage`), 0 without one. */
function totalTokens(usage: unknown): number {
  const total = (usage as { totalTokens?: unknown } | undefined)?.totalTokens;
  return typeof total === 'number' && Number.isFinite(total) ? total : 0;
}
