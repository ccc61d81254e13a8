import type { HostPoliteness } from '@crawlkit/frontier';
import type { Task, TaskInput } from '@crawlkit/store';

import type { PageScrapeOutcome, PageScrapeRequest } from '../scrape/types.js';

export interface PrepareOptions {
  /** Discover seeds (sitemaps). Default true. */
  discover?: boolean;
}

/** What a planner decides about a finished page. */
export interface PageVerdict {
  /** Newly discovered tasks. */
  tasks: TaskInput[];
  /** Record the page as failed with this error instead of storing it. */
  reject?: { code: string; error: string };
  /** Scraped only for its links (e.g. a seed outside the include patterns): store nothing. */
  discard?: boolean;
}

/** What a job kind (crawl, batch) contributes to the task execution; the same in-process and on Redis workers. */
export interface JobPlanner {
  /** Page scrape options (with the task's URL filled in by the task execution). */
  readonly scrapeOptions: Omit<PageScrapeRequest, 'url'>;
  /** The page options of one URL, when they depend on it (a crawl's `headers`). @default `scrapeOptions` */
  scrapeOptionsFor?(url: string): Omit<PageScrapeRequest, 'url'>;
  /** Tasks running at once for this job. */
  readonly concurrency: number;
  /** Whether pages need their links for discovery. */
  readonly collectsLinks: boolean;
  /**
   * Whether the planner reads each page's main-content hash (`PageScrapeOutcome.contentHash`): every page's main
   * content is then extracted as markdown, whatever the formats.
   * @default false
   */
  readonly hashesContent?: boolean;
  /**
   * Called once when a process (re)starts the job: seeds, sitemaps, robots. Returns tasks to add. With
   * `discover: false` (another worker of the cluster discovers this job's seeds) it only loads what this process needs
   * to judge pages (robots.txt); work that must never be skipped, such as a batch's backlog, runs regardless.
   */
  prepare(signal: AbortSignal, options?: PrepareOptions): Promise<TaskInput[]>;
  /**
   * The job's per-host pacing: the spacing `delay` and robots `Crawl-delay` ask for (known once prepared), and rests
   * after 429/503. In-process it is the ledger itself; Redis workers take its spacing and keep the ledger in Redis, so
   * that it holds across workers. A batch has one with no spacing, for the rests. Absent: hosts are not paced.
   */
  readonly politeness?: HostPoliteness;
  /**
   * Whether a task is refused before it is fetched: a crawl's seed that robots.txt disallows (links are judged as
   * they are found, but the seed is queued before robots.txt is read). A refused task settles with nothing stored.
   * @default none refused
   */
  refuses?(task: Task): boolean | Promise<boolean>;
  /** Reacts to a finished page: may veto it (redirected out of scope) and returns newly discovered tasks. */
  afterPage(task: Task, outcome: PageScrapeOutcome, links: string[]): Promise<PageVerdict>;
  /** Tasks may not exceed this in total. */
  readonly limit?: number;
  /** Nothing of this job may be written to disk. */
  readonly zeroDataRetention: boolean;
}

/** The `limit` option of `tasks.add` for the job's planner. */
export function limitOf(planner: JobPlanner): { limit?: number } {
  return planner.limit !== undefined ? { limit: planner.limit } : {};
}
