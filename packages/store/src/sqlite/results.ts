import { JobNotFoundError } from '../errors.js';
import { takeWithin } from '../result-reads.js';
import type { JobError, ResultReadOptions, ResultStore, StoredResult } from '../types.js';
import type { SqliteDatabase } from './database.js';
import { insertError } from './tasks.js';

interface ErrorRow {
  uid: string;
  url: string;
  code: string | null;
  error: string;
  timestamp: number;
}

export class SqliteResultStore implements ResultStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  list(jobId: string, skip: number, limit: number, options?: ResultReadOptions): Promise<StoredResult[]> {
    // Result seqs are 1, 2, 3, ... without gaps (assigned in the completing transaction, never deleted one by one),
    // so skipping n results is `seq > n`: an index seek instead of an OFFSET scan.
    return this.since(jobId, Math.max(0, skip), limit, options);
  }

  since(jobId: string, afterSeq: number, limit: number, options: ResultReadOptions = {}): Promise<StoredResult[]> {
    return this.#db.use(() => {
      if (limit <= 0) return [];
      const rows = this.#db.iterate<StoredResult>(
        'SELECT seq, key, document FROM results WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?',
        jobId,
        afterSeq,
        limit,
      );
      return takeWithin(rows, options.maxChars);
    });
  }

  count(jobId: string): Promise<number> {
    return this.#db.use(
      () => this.#db.get<{ result_seq: number }>('SELECT result_seq FROM jobs WHERE id = ?', jobId)?.result_seq ?? 0,
    );
  }

  errors(jobId: string, limit?: number): Promise<JobError[]> {
    return this.#db.use(() =>
      this.#db
        .all<ErrorRow>(
          'SELECT uid, url, code, error, timestamp FROM errors WHERE job_id = ? ORDER BY id LIMIT ?',
          jobId,
          limit === undefined ? -1 : Math.max(0, limit),
        )
        .map((row) => {
          const entry: JobError = { id: row.uid, url: row.url, error: row.error, timestamp: row.timestamp };
          if (row.code !== null) entry.code = row.code;
          return entry;
        }),
    );
  }

  errorCount(jobId: string): Promise<number> {
    return this.#db.use(
      () => this.#db.get<{ n: number }>('SELECT count(*) AS n FROM errors WHERE job_id = ?', jobId)?.n ?? 0,
    );
  }

  addError(jobId: string, error: { url: string; code?: string; error: string }): Promise<void> {
    return this.#db.useWrite(() => {
      this.#requireJob(jobId);
      insertError(this.#db, jobId, error, Date.now());
    });
  }

  addRobotsBlocked(jobId: string, url: string): Promise<void> {
    return this.#db.useWrite(() => {
      this.#requireJob(jobId);
      this.#db.run('INSERT INTO robots_blocked (job_id, url) VALUES (?, ?) ON CONFLICT DO NOTHING', jobId, url);
    });
  }

  robotsBlocked(jobId: string): Promise<string[]> {
    return this.#db.use(() =>
      this.#db
        .all<{ url: string }>('SELECT url FROM robots_blocked WHERE job_id = ? ORDER BY id', jobId)
        .map((r) => r.url),
    );
  }

  #requireJob(jobId: string): void {
    if (!this.#db.get('SELECT 1 FROM jobs WHERE id = ?', jobId)) throw new JobNotFoundError(jobId);
  }
}
