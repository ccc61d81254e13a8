/** What a job's tasks produced: its result documents, its errors and the URLs robots.txt kept out. */

export interface StoredResult {
  /** Completion order within the job (1, 2, ...). */
  seq: number;
  key: string;
  document: string;
}

export interface JobError {
  /** Unique id of the error entry. */
  id: string;
  url: string;
  code?: string;
  error: string;
  timestamp: number;
}

/** How much of a job's results one read may return. */
export interface ResultReadOptions {
  /**
   * Stop once the documents read pass this many characters of JSON (the first one is always returned): a page of a
   * large job's results is read without reading, or holding, the rest.
   * @default unbounded
   */
  maxChars?: number;
}

export interface ResultStore {
  /** Results in completion order: `skip` first ones skipped, at most `limit` returned (and `maxChars`). */
  list(jobId: string, skip: number, limit: number, options?: ResultReadOptions): Promise<StoredResult[]>;
  /** Results with `seq > afterSeq`, in order (for streaming), at most `limit` (and `maxChars`). */
  since(jobId: string, afterSeq: number, limit: number, options?: ResultReadOptions): Promise<StoredResult[]>;
  /** How many results the job has (0 for an unknown job). */
  count(jobId: string): Promise<number>;
  /** The job's errors, oldest first: the `limit` oldest only when it is given. */
  errors(jobId: string, limit?: number): Promise<JobError[]>;
  /** How many errors the job has (0 for an unknown job). */
  errorCount(jobId: string): Promise<number>;
  /**
   * Records an error that is not a task's (e.g. an undelivered webhook event), stamped now with a fresh id. Rejects
   * with `JobNotFoundError` for an unknown job (so no row outlives its job).
   */
  addError(jobId: string, error: { url: string; code?: string; error: string }): Promise<void>;
  /** Records a URL that robots.txt kept from being crawled, once per job. `JobNotFoundError` for an unknown job. */
  addRobotsBlocked(jobId: string, url: string): Promise<void>;
  /** The recorded robots-blocked URLs, in the order first recorded. */
  robotsBlocked(jobId: string): Promise<string[]>;
}
