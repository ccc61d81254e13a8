import { positiveInt } from '@crawlkit/options';
import type { Store } from '@crawlkit/store';
import { z } from 'zod';

import type { EngineAdvice } from '../scrape/scrape-state.js';

/** How a crawl or batch learns, per host, which engine its pages need (`CrawlkitOptions.engineLearning`). */
export interface EngineLearningOptions {
  /**
   * Share of the pages of a host known to need the browser that are fetched both ways (over HTTP and judged, and in
   * the browser), so that a host that stopped needing it, or was taken for one, is corrected. Chosen per URL.
   * @default 0.1
   */
  checkShare?: number;
  /**
   * Pages of a host that must have needed the browser (and more than did not) before its further pages go straight
   * to the browser.
   * @default 2
   */
  minPages?: number;
  /**
   * Hosts a job keeps counts for (the counts of one host are two small numbers in the job's store).
   * @default 10000
   */
  maxHosts?: number;
}

/** The check of `CrawlkitOptions.engineLearning`: `false`, or the options above with their defaults. */
export const engineLearningSchema = z
  .union([
    z.literal(false),
    z.strictObject({
      checkShare: z.number().min(0).max(1).default(0.1),
      minPages: positiveInt.default(2),
      maxHosts: positiveInt.default(10_000),
    }),
  ])
  .prefault({});

/** One page's part in the learning: what the fetcher should know, and how to count what the page showed. */
export interface PageLearning {
  advice: EngineAdvice;
  learn: (evidence: 'http' | 'browser') => Promise<void>;
}

/** Counts past which an agreeing page changes nothing and is not written (the store halves counts at 20). */
const SETTLED = 10;

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** FNV-1a of `text` in [0, 1): the same URL is always checked or never (a resumed job checks the same pages). */
function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32;
}

/**
 * The adaptive engine choice of one job, like Crawlee's adaptive crawler: each page fetched in `auto` tells whether
 * its HTML held the content (`http`) or rendering showed what the HTML lacked (`browser`); once a host has shown
 * that its pages need the browser, its further pages go straight to it, and a share of them is checked both ways.
 * Pages of other hosts keep the default path (HTTP, then the render judge, which renders a page that needs it).
 * Everything learned lives in the job's store (`store.engines`), so it survives a resume and Redis workers share it;
 * this object holds nothing.
 */
export class EngineLearning {
  readonly #store: Store;
  readonly #jobId: string;
  readonly #options: Required<EngineLearningOptions>;

  constructor(store: Store, jobId: string, options: Required<EngineLearningOptions>) {
    this.#store = store;
    this.#jobId = jobId;
    this.#options = options;
  }

  /** What the fetcher should know about `url` (nothing until its host has shown enough pages), and how to learn. */
  async page(url: string): Promise<PageLearning> {
    const host = hostOf(url);
    if (!host) return { advice: {}, learn: () => Promise.resolve() };
    const stats = await this.#store.engines.get(this.#jobId, host);
    const { checkShare, minPages, maxHosts } = this.#options;
    const advice: EngineAdvice = {};
    if (stats && stats.browser >= minPages && stats.browser > stats.http) {
      advice.hostNeeds = 'browser';
      if (unitHash(url) < checkShare) advice.checkEngines = true;
    }
    const learn = async (evidence: 'http' | 'browser') => {
      // A settled host: one more agreeing page changes nothing, so the store is not written on every page.
      const [ours, theirs] = evidence === 'http' ? [stats?.http, stats?.browser] : [stats?.browser, stats?.http];
      if (theirs === 0 && ours !== undefined && ours >= SETTLED) return;
      await this.#store.engines.record(this.#jobId, host, evidence, { maxHosts });
    };
    return { advice, learn };
  }
}
