import { Fetcher, tightenUrlPolicy, type FetcherOptions, type UrlPolicy } from '@crawlkit/fetcher';
import type { JobRecord } from '@crawlkit/store';

import type { EngineContext } from '../context.js';
import { storedJobOf } from '../codec/records.js';

/**
 * The URL policy a job was submitted under, recorded with it (`StoredJob.urlPolicy`); undefined for a job stored
 * without one (an engine with no policy, or a job older than the rule).
 */
export function storedUrlPolicy(job: JobRecord): UrlPolicy | undefined {
  return storedJobOf<object>(job).urlPolicy;
}

/** What a job records of its submitter's policy: nothing when that policy allows everything. */
export function policyToStore(policy: Readonly<UrlPolicy>): UrlPolicy | undefined {
  return Object.values(policy).some((value) => value !== undefined) ? { ...policy } : undefined;
}

/**
 * The fetchers of one engine by URL policy: its own, and one more per policy that jobs bring tighter than it (a strict
 * submitter's job on a worker with no policy). Each extra fetcher keeps the engine's other settings; it is built on
 * first use (a browser starts only when one of its pages needs it) and closed with the engine. Jobs bring few
 * distinct policies, so none is evicted.
 */
export class PolicyFetchers {
  readonly #engine: Fetcher;
  readonly #options: FetcherOptions;
  readonly #tighter = new Map<string, Fetcher>();

  constructor(engine: Fetcher, options: FetcherOptions) {
    this.#engine = engine;
    this.#options = options;
  }

  /** The fetcher that applies the engine's policy and `policy` both. */
  forPolicy(policy: Readonly<UrlPolicy> | undefined): Fetcher {
    if (!policy) return this.#engine;
    const both = tightenUrlPolicy(this.#engine.urlPolicy, policy);
    const key = JSON.stringify(both);
    if (key === JSON.stringify(tightenUrlPolicy(this.#engine.urlPolicy, {}))) return this.#engine;
    let fetcher = this.#tighter.get(key);
    if (!fetcher) {
      const http = { ...this.#options.http, urlPolicy: both };
      fetcher = new Fetcher({ ...this.#options, http, urlPolicy: both });
      this.#tighter.set(key, fetcher);
    }
    return fetcher;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#tighter.values()].map((fetcher) => fetcher.close()));
  }
}

/**
 * The context a job's pages, robots.txt and sitemaps are fetched in: the engine's, with the fetcher of the job's own
 * policy where it is tighter. Every process running a job (in-process, on resume, any Redis worker) goes through this,
 * so a job keeps its submitter's policy wherever it runs, and a process's own policy can only tighten it.
 */
export function jobContext(ctx: EngineContext, fetchers: PolicyFetchers, job: JobRecord): EngineContext {
  const fetcher = fetchers.forPolicy(storedUrlPolicy(job));
  return fetcher === ctx.fetcher ? ctx : { ...ctx, fetcher, http: fetcher.http };
}
