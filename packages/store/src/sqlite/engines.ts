import { countPage, engineStoreLimits } from '../engine-counts.js';
import { JobNotFoundError } from '../errors.js';
import type { EngineStore, EngineStoreLimits, HostEngineStats } from '../types.js';
import type { SqliteDatabase } from './database.js';

/** What jobs learned per host about the engine their pages need (`host_engines`). */
export class SqliteEngineStore implements EngineStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  get(jobId: string, host: string): Promise<HostEngineStats | undefined> {
    return this.#db.use(() => {
      const row = this.#db.get<HostEngineStats>(
        'SELECT http, browser FROM host_engines WHERE job_id = ? AND host = ?',
        jobId,
        host,
      );
      return row ? { http: row.http, browser: row.browser } : undefined;
    });
  }

  record(
    jobId: string,
    host: string,
    page: 'http' | 'browser',
    limits?: EngineStoreLimits,
  ): Promise<HostEngineStats | undefined> {
    return this.#db.useWrite(() => {
      const { maxCount, maxHosts } = engineStoreLimits(limits);
      if (!this.#db.get('SELECT 1 FROM jobs WHERE id = ?', jobId)) throw new JobNotFoundError(jobId);
      const old = this.#db.get<HostEngineStats>(
        'SELECT http, browser FROM host_engines WHERE job_id = ? AND host = ?',
        jobId,
        host,
      );
      if (!old) {
        const hosts = this.#db.get<{ n: number }>('SELECT count(*) AS n FROM host_engines WHERE job_id = ?', jobId);
        if ((hosts?.n ?? 0) >= maxHosts) return undefined;
      }
      const stats = countPage(old, page, maxCount);
      this.#db.run(
        `INSERT INTO host_engines (job_id, host, http, browser) VALUES (?, ?, ?, ?)
         ON CONFLICT (job_id, host) DO UPDATE SET http = excluded.http, browser = excluded.browser`,
        jobId,
        host,
        stats.http,
        stats.browser,
      );
      return stats;
    });
  }
}
