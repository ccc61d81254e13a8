import { JobExistsError } from '../errors.js';
import { jobPatchEntries, type JobPatch, type PatchableField } from '../job-patch.js';
import { statusRead } from '../records.js';
import type { JobKind, JobRecord, JobStatus, JobStatusRead, JobStore, TaskInput } from '../types.js';
import type { SqliteDatabase, SqlValue } from './database.js';
import { insertTasks } from './tasks.js';

interface JobRow {
  id: string;
  kind: JobKind;
  status: JobStatus;
  request: string;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  expires_at: number | null;
  credits_used: number;
  stored_bytes: number;
  error: string | null;
}

const JOB_COLUMNS = 'id, kind, status, request, created_at, updated_at, completed_at, expires_at, credits_used, error';
/** Read with the job; `stored_bytes` is written by `tasks.complete` only. */
const JOB_READ_COLUMNS = `${JOB_COLUMNS}, stored_bytes`;

const COLUMN: Record<PatchableField, string> = {
  status: 'status',
  request: 'request',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  completedAt: 'completed_at',
  expiresAt: 'expires_at',
  creditsUsed: 'credits_used',
  error: 'error',
};

/** Every table holding rows of a job, in delete order (the job row last). */
const JOB_TABLES = ['tasks', 'aliases', 'results', 'errors', 'robots_blocked', 'deliveries', 'host_engines'] as const;

export class SqliteJobStore implements JobStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  create(job: JobRecord, tasks: TaskInput[]): Promise<void> {
    return this.#db.useWrite(() => {
      if (this.#db.get('SELECT 1 FROM jobs WHERE id = ?', job.id)) throw new JobExistsError(job.id);
      this.#db.run(
        `INSERT INTO jobs (${JOB_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        job.id,
        job.kind,
        job.status,
        job.request,
        job.createdAt,
        job.updatedAt,
        job.completedAt ?? null,
        job.expiresAt ?? null,
        job.creditsUsed,
        job.error ?? null,
      );
      insertTasks(this.#db, job.id, tasks, Infinity, 0);
    });
  }

  get(id: string): Promise<JobRecord | undefined> {
    return this.#db.use(() => {
      const row = this.#db.get<JobRow>(`SELECT ${JOB_READ_COLUMNS} FROM jobs WHERE id = ?`, id);
      return row ? toJob(row) : undefined;
    });
  }

  statuses(ids: readonly string[]): Promise<Map<string, JobStatusRead>> {
    return this.#db.use(() => {
      // The ids as one JSON parameter: one statement, whatever their number.
      const rows = this.#db.all<Pick<JobRow, 'id' | 'status' | 'expires_at'> & { result_seq: number }>(
        'SELECT id, status, expires_at, result_seq FROM jobs WHERE id IN (SELECT value FROM json_each(?))',
        JSON.stringify(ids),
      );
      return new Map(rows.map((row) => [row.id, statusRead(row.status, row.expires_at ?? undefined, row.result_seq)]));
    });
  }

  update(id: string, patch: JobPatch): Promise<void> {
    return this.#db.useWrite(() => {
      const entries = jobPatchEntries(patch, Date.now());
      const assignments = entries.map(([field]) => `${COLUMN[field]} = ?`).join(', ');
      // The SQL text depends only on which fields are set, so the statement cache stays small.
      this.#db.run(`UPDATE jobs SET ${assignments} WHERE id = ?`, ...entries.map(([, value]) => value), id);
    });
  }

  replaceRequest(id: string, expected: string, request: string): Promise<boolean> {
    return this.#db.useWrite(
      () =>
        this.#db.run(
          'UPDATE jobs SET request = ?, updated_at = ? WHERE id = ? AND request = ?',
          request,
          Date.now(),
          id,
          expected,
        ) === 1,
    );
  }

  list(filter?: { status?: JobStatus[]; kind?: JobKind }): Promise<JobRecord[]> {
    return this.#db.use(() => {
      const where: string[] = [];
      const params: SqlValue[] = [];
      if (filter?.status) {
        if (filter.status.length === 0) return [];
        where.push(`status IN (${filter.status.map(() => '?').join(', ')})`);
        params.push(...filter.status);
      }
      if (filter?.kind) {
        where.push('kind = ?');
        params.push(filter.kind);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const sql = `SELECT ${JOB_READ_COLUMNS} FROM jobs ${clause} ORDER BY created_at DESC, id DESC`;
      return this.#db.all<JobRow>(sql, ...params).map(toJob);
    });
  }

  delete(id: string): Promise<void> {
    return this.#db.useWrite(() => this.#deleteRows(id));
  }

  async deleteExpired(now = Date.now()): Promise<string[]> {
    const ids = await this.#db.use(() =>
      this.#db
        .all<{ id: string }>('SELECT id FROM jobs WHERE expires_at IS NOT NULL AND expires_at <= ?', now)
        .map((row) => row.id),
    );
    // One transaction per job keeps the write lock short when a job holds many results.
    const deleted = await Promise.all(
      ids.map((id) =>
        this.#db.useWrite(() => {
          const row = this.#db.get<{ expires_at: number | null }>('SELECT expires_at FROM jobs WHERE id = ?', id);
          if (!row || row.expires_at === null || row.expires_at > now) return false;
          this.#deleteRows(id);
          return true;
        }),
      ),
    );
    return ids.filter((_, i) => deleted[i]);
  }

  acquireLease(id: string, owner: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    return this.#db.useWrite(
      () =>
        this.#db.run(
          `UPDATE jobs SET lease_owner = ?, lease_until = ?
           WHERE id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until <= ?)`,
          owner,
          now + ttlMs,
          id,
          owner,
          now,
        ) === 1,
    );
  }

  releaseLease(id: string, owner: string): Promise<void> {
    return this.#db.useWrite(() => {
      this.#db.run('UPDATE jobs SET lease_owner = NULL, lease_until = 0 WHERE id = ? AND lease_owner = ?', id, owner);
    });
  }

  leaseHolder(id: string): Promise<{ owner: string; until: number } | undefined> {
    return this.#db.use(() => {
      const row = this.#db.get<{ lease_owner: string | null; lease_until: number }>(
        'SELECT lease_owner, lease_until FROM jobs WHERE id = ?',
        id,
      );
      return row && row.lease_owner !== null ? { owner: row.lease_owner, until: row.lease_until } : undefined;
    });
  }

  #deleteRows(id: string): void {
    for (const table of JOB_TABLES) this.#db.run(`DELETE FROM ${table} WHERE job_id = ?`, id);
    this.#db.run('DELETE FROM jobs WHERE id = ?', id);
  }
}

function toJob(row: JobRow): JobRecord {
  const job: JobRecord = {
    id: row.id,
    kind: row.kind,
    status: row.status,
    request: row.request,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    creditsUsed: row.credits_used,
    storedBytes: row.stored_bytes,
  };
  if (row.completed_at !== null) job.completedAt = row.completed_at;
  if (row.expires_at !== null) job.expiresAt = row.expires_at;
  if (row.error !== null) job.error = row.error;
  return job;
}
