/** A job's tasks (its frontier): the URLs to scrape, claimed, settled or dropped once each. */
import type { JobCounts } from './jobs.js';
import type { SearchText } from './search.js';

export interface TaskInput {
  /** De-duplication key (the normalised URL); unique within a job. */
  key: string;
  /** The URL to fetch, as discovered. */
  url: string;
  /** Discovery depth (seed and sitemap URLs 0). */
  depth: number;
  /** Opaque per-task data for the caller (serialised), e.g. the original `sourceURL`. */
  meta?: string;
}

export type TaskState = 'queued' | 'active' | 'done' | 'failed';

export interface Task extends TaskInput {
  /** Insertion order within the job (1, 2, ...). Claims go in this order. */
  seq: number;
  state: TaskState;
  /** How many times the task was claimed. */
  attempts: number;
  /** Not claimable before this time (politeness, Retry-After). */
  notBefore: number;
}

export interface TaskOutcome {
  key: string;
  /** Credits to add to the job. */
  credits: number;
  /** Serialised document of a successful scrape: appended to the job's results. */
  document?: string;
  /** The document's text for the search index, indexed with the result in the same transaction. */
  search?: SearchText;
  /** A failed scrape: recorded in the job's errors. A task may carry both (a document that also reports an error). */
  error?: { url: string; code?: string; error: string };
}

/** What `TaskStore.complete` did. */
export interface TaskCompletion {
  /** The task was already done or failed: nothing changed. */
  duplicate: boolean;
  /** The document's `seq` in the job's results. */
  resultSeq?: number;
  /** The job's `storedBytes` after this completion (absent for a duplicate). */
  storedBytes?: number;
}

/** The UTF-8 size of a stored document: the one measure of `JobRecord.storedBytes`. */
export function documentBytes(document: string | undefined): number {
  return document === undefined ? 0 : Buffer.byteLength(document, 'utf8');
}

/**
 * What a page of a crawl said a key holds: the hash of its main content, and the key of the task whose page said it
 * (`TaskStore.claimAlias`).
 */
export interface AliasClaim {
  /** The hash of the page's main content. */
  hash: string;
  /** The key of the task whose page made the claim. */
  by: string;
}

export interface TaskStore {
  /**
   * Adds the tasks whose key is new to the job, in order, stopping when the job holds `limit` tasks (counting all
   * states, dropped ones included). Atomic: concurrent calls never exceed `limit` nor add a key twice. Keys repeated
   * within `tasks` are added once. Returns the tasks added. Rejects with `JobNotFoundError` for an unknown job.
   */
  add(jobId: string, tasks: TaskInput[], options?: { limit?: number; notBefore?: number }): Promise<TaskInput[]>;
  /** Whether the key was ever added to the job (dropped tasks included). */
  has(jobId: string, key: string): Promise<boolean>;
  /**
   * Records `claim` as what `key` holds in the job (a page's own key, or the key its `rel=canonical` names) unless a
   * claim is recorded for it, and resolves to the claim recorded before: undefined when there was none (this one is
   * now recorded). A page's claim on its own key (`claim.by === key`) replaces one another page made with another
   * hash: the page at the URL says what its key holds, a page that named it does not. Atomic: of concurrent claims on
   * a new key, one is recorded and the others are answered with it. The claims go with the job. Rejects with
   * `JobNotFoundError` for an unknown job.
   */
  claimAlias(jobId: string, key: string, claim: AliasClaim): Promise<AliasClaim | undefined>;
  /**
   * Moves up to `count` queued tasks whose `notBefore <= now` to `active`, lowest `seq` first, and returns them
   * (atomic: a task is handed to one caller only).
   */
  claim(jobId: string, count: number, now?: number): Promise<Task[]>;
  /**
   * Finishes a task: marks it `done` (or `failed` when it has an error and no document), appends its document to the
   * results (`resultSeq` is its `seq` there) and its error to the errors, adds its credits to the job's
   * `creditsUsed` and its document's UTF-8 bytes to the job's `storedBytes` (`storedBytes` in the answer is the job's
   * total after it), and bumps the job's `updatedAt`, all in one transaction.
   * The task is normally `active`; a `queued` or dropped one is accepted too (its owner lost the lease or the job was
   * cancelled while it ran, yet the work is done and is kept), and is then never claimed again.
   * Idempotent: completing a task that is already done or failed changes nothing and returns `{ duplicate: true }`.
   * Rejects with `JobNotFoundError` / `TaskNotFoundError` for an unknown job or key.
   */
  complete(jobId: string, outcome: TaskOutcome): Promise<TaskCompletion>;
  /**
   * Completes several tasks of a job in one transaction: as `complete` for each outcome in order (a key given twice
   * is a duplicate the second time), answering their completions in the same order. All or nothing: when it rejects
   * (`JobNotFoundError`, `TaskNotFoundError` for any key), no outcome was applied. What a job runner uses to settle
   * the pages that finished together at the cost of one commit; each task stays claimed until its batch commits, so
   * a crash before that leaves it to be claimed again, and once committed it is never completed twice.
   */
  completeMany(jobId: string, outcomes: readonly TaskOutcome[]): Promise<TaskCompletion[]>;
  /**
   * Puts an active task back in the queue, claimable from `notBefore` (default: at once). Its `attempts` is kept.
   * No-op unless the task is active.
   */
  release(jobId: string, key: string, notBefore?: number): Promise<void>;
  /** Puts every active task of the job back in the queue (after a crash). Returns how many. */
  requeueActive(jobId: string): Promise<number>;
  /**
   * Drops every queued task (cancel). Returns how many. Dropped tasks are never claimed and are not in `counts`, but
   * stay known to `has` and to `add`'s de-duplication and limit.
   */
  dropQueued(jobId: string): Promise<number>;
  /** Tasks per state (dropped ones excluded). All zero for an unknown job. */
  counts(jobId: string): Promise<JobCounts>;
}
