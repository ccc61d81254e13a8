import { randomUUID } from 'node:crypto';
import { JobNotFoundError, TaskNotFoundError } from '../errors.js';
import {
  documentBytes,
  type AliasClaim,
  type JobCounts,
  type Task,
  type TaskCompletion,
  type TaskInput,
  type TaskOutcome,
  type TaskStore,
} from '../types.js';
import type { SqliteDatabase } from './database.js';
import { indexResult } from './search.js';

interface TaskRow {
  seq: number;
  key: string;
  url: string;
  depth: number;
  meta: string | null;
  attempts: number;
  not_before: number;
}

/**
 * Adds the tasks whose key is new, in order, until the job holds `limit` tasks. Call inside `write`: the job's
 * `task_seq` read here is only safe to extend under the write lock.
 */
export function insertTasks(
  db: SqliteDatabase,
  jobId: string,
  tasks: readonly TaskInput[],
  limit: number,
  notBefore: number,
): TaskInput[] {
  const job = db.get<{ task_seq: number }>('SELECT task_seq FROM jobs WHERE id = ?', jobId);
  if (!job) throw new JobNotFoundError(jobId);
  let seq = job.task_seq;
  const added: TaskInput[] = [];
  for (const task of tasks) {
    if (seq >= limit) break;
    const changes = db.run(
      `INSERT INTO tasks (job_id, seq, key, url, depth, meta, state, attempts, not_before)
       VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?) ON CONFLICT (job_id, key) DO NOTHING`,
      jobId,
      seq + 1,
      task.key,
      task.url,
      task.depth,
      task.meta ?? null,
      notBefore,
    );
    if (changes === 0) continue;
    seq++;
    const input: TaskInput = { key: task.key, url: task.url, depth: task.depth };
    if (task.meta !== undefined) input.meta = task.meta;
    added.push(input);
  }
  if (added.length > 0) {
    db.run('UPDATE jobs SET task_seq = ?, queued = queued + ? WHERE id = ?', seq, added.length, jobId);
  }
  return added;
}

type CountDelta = Partial<Record<keyof JobCounts, number>>;

/**
 * Moves the job's per-state task counts (kept in the jobs row so that `counts` is O(1)). Every statement that
 * changes a task's state is followed by this in the same transaction.
 */
function adjustCounts(db: SqliteDatabase, jobId: string, delta: CountDelta): void {
  db.run(
    'UPDATE jobs SET queued = queued + ?, active = active + ?, done = done + ?, failed = failed + ? WHERE id = ?',
    delta.queued ?? 0,
    delta.active ?? 0,
    delta.done ?? 0,
    delta.failed ?? 0,
    jobId,
  );
}

/** Records a job error. Call inside `write` after checking the job exists. */
export function insertError(
  db: SqliteDatabase,
  jobId: string,
  error: { url: string; code?: string; error: string },
  now: number,
): void {
  db.run(
    'INSERT INTO errors (job_id, uid, url, code, error, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
    jobId,
    randomUUID(),
    error.url,
    error.code ?? null,
    error.error,
    now,
  );
}

export class SqliteTaskStore implements TaskStore {
  readonly #db: SqliteDatabase;
  readonly #indexes: boolean;

  /** `indexes`: whether results completed with text are indexed (`SqliteStoreOptions.searchIndex`). */
  constructor(db: SqliteDatabase, indexes = false) {
    this.#db = db;
    this.#indexes = indexes;
  }

  add(jobId: string, tasks: TaskInput[], options?: { limit?: number; notBefore?: number }): Promise<TaskInput[]> {
    return this.#db.useWrite(() =>
      insertTasks(this.#db, jobId, tasks, options?.limit ?? Infinity, options?.notBefore ?? 0),
    );
  }

  has(jobId: string, key: string): Promise<boolean> {
    return this.#db.use(
      () => this.#db.get('SELECT 1 FROM tasks WHERE job_id = ? AND key = ?', jobId, key) !== undefined,
    );
  }

  claimAlias(jobId: string, key: string, claim: AliasClaim): Promise<AliasClaim | undefined> {
    return this.#db.useWrite(() => {
      if (!this.#db.get('SELECT 1 FROM jobs WHERE id = ?', jobId)) throw new JobNotFoundError(jobId);
      const found = this.#db.get<{ hash: string; by_key: string }>(
        'SELECT hash, by_key FROM aliases WHERE job_id = ? AND key = ?',
        jobId,
        key,
      );
      if (!found || (claim.by === key && found.by_key !== key && found.hash !== claim.hash)) {
        this.#db.run(
          'INSERT OR REPLACE INTO aliases (job_id, key, hash, by_key) VALUES (?, ?, ?, ?)',
          jobId,
          key,
          claim.hash,
          claim.by,
        );
      }
      return found && { hash: found.hash, by: found.by_key };
    });
  }

  claim(jobId: string, count: number, now = Date.now()): Promise<Task[]> {
    if (count <= 0) return this.#db.use(() => []);
    return this.#db.useWrite(() => {
      // The subquery picks and the update takes in one statement, under the write lock.
      const taken = this.#db.all<TaskRow>(
        `UPDATE tasks SET state = 'active', attempts = attempts + 1
           WHERE job_id = ? AND seq IN (
             SELECT seq FROM tasks WHERE job_id = ? AND state = 'queued' AND not_before <= ? ORDER BY seq LIMIT ?
           )
           RETURNING seq, key, url, depth, meta, attempts, not_before`,
        jobId,
        jobId,
        now,
        count,
      );
      if (taken.length > 0) adjustCounts(this.#db, jobId, { queued: -taken.length, active: taken.length });
      return taken.sort((a, b) => a.seq - b.seq).map(toTask);
    });
  }

  complete(jobId: string, outcome: TaskOutcome): Promise<TaskCompletion> {
    return this.#db.useWrite(() => this.#complete(jobId, outcome));
  }

  completeMany(jobId: string, outcomes: readonly TaskOutcome[]): Promise<TaskCompletion[]> {
    // One transaction: a throw for any outcome rolls back the ones before it.
    if (outcomes.length === 0) {
      return this.#db.use(() => {
        if (!this.#db.get('SELECT 1 FROM jobs WHERE id = ?', jobId)) throw new JobNotFoundError(jobId);
        return [];
      });
    }
    return this.#db.useWrite(() => outcomes.map((outcome) => this.#complete(jobId, outcome)));
  }

  /** One task's completion; call inside `write`. */
  #complete(jobId: string, outcome: TaskOutcome): TaskCompletion {
    const task = this.#db.get<{ seq: number; state: string }>(
      'SELECT seq, state FROM tasks WHERE job_id = ? AND key = ?',
      jobId,
      outcome.key,
    );
    if (!task) {
      if (!this.#db.get('SELECT 1 FROM jobs WHERE id = ?', jobId)) throw new JobNotFoundError(jobId);
      throw new TaskNotFoundError(jobId, outcome.key);
    }
    if (task.state === 'done' || task.state === 'failed') return { duplicate: true };
    const failed = outcome.document === undefined && outcome.error !== undefined;
    this.#db.run(
      'UPDATE tasks SET state = ? WHERE job_id = ? AND seq = ?',
      failed ? 'failed' : 'done',
      jobId,
      task.seq,
    );
    const now = Date.now();
    // One write of the job row: result seq, credits, updatedAt and the task counts move together.
    const job = this.#db.get<{ result_seq: number; stored_bytes: number }>(
      `UPDATE jobs SET result_seq = result_seq + ?, credits_used = credits_used + ?, updated_at = ?,
         stored_bytes = stored_bytes + ?,
         queued = queued - ?, active = active - ?, done = done + ?, failed = failed + ?
       WHERE id = ? RETURNING result_seq, stored_bytes`,
      outcome.document !== undefined ? 1 : 0,
      outcome.credits,
      now,
      documentBytes(outcome.document),
      task.state === 'queued' ? 1 : 0,
      task.state === 'active' ? 1 : 0,
      failed ? 0 : 1,
      failed ? 1 : 0,
      jobId,
    )!;
    if (outcome.error) insertError(this.#db, jobId, outcome.error, now);
    const storedBytes = job.stored_bytes;
    if (outcome.document === undefined) return { duplicate: false, storedBytes };
    this.#db.run(
      'INSERT INTO results (job_id, seq, key, document) VALUES (?, ?, ?, ?)',
      jobId,
      job.result_seq,
      outcome.key,
      outcome.document,
    );
    if (this.#indexes && outcome.search) indexResult(this.#db, jobId, job.result_seq, now, outcome.search);
    return { duplicate: false, resultSeq: job.result_seq, storedBytes };
  }

  release(jobId: string, key: string, notBefore = 0): Promise<void> {
    return this.#db.useWrite(() => {
      const changed = this.#db.run(
        "UPDATE tasks SET state = 'queued', not_before = ? WHERE job_id = ? AND key = ? AND state = 'active'",
        notBefore,
        jobId,
        key,
      );
      if (changed > 0) adjustCounts(this.#db, jobId, { active: -1, queued: 1 });
    });
  }

  requeueActive(jobId: string): Promise<number> {
    return this.#db.useWrite(() => {
      // Without INDEXED BY the planner (no ANALYZE statistics) walks every task of the job.
      const moved = this.#db.run(
        "UPDATE tasks INDEXED BY tasks_state SET state = 'queued' WHERE job_id = ? AND state = 'active'",
        jobId,
      );
      if (moved > 0) adjustCounts(this.#db, jobId, { active: -moved, queued: moved });
      return moved;
    });
  }

  dropQueued(jobId: string): Promise<number> {
    return this.#db.useWrite(() => {
      const dropped = this.#db.run(
        "UPDATE tasks INDEXED BY tasks_state SET state = 'dropped' WHERE job_id = ? AND state = 'queued'",
        jobId,
      );
      if (dropped > 0) adjustCounts(this.#db, jobId, { queued: -dropped });
      return dropped;
    });
  }

  counts(jobId: string): Promise<JobCounts> {
    return this.#db.use(() => {
      const row = this.#db.get<JobCounts>('SELECT queued, active, done, failed FROM jobs WHERE id = ?', jobId);
      return row ? { queued: row.queued, active: row.active, done: row.done, failed: row.failed } : zeroCounts();
    });
  }
}

function zeroCounts(): JobCounts {
  return { queued: 0, active: 0, done: 0, failed: 0 };
}

function toTask(row: TaskRow): Task {
  const task: Task = {
    key: row.key,
    url: row.url,
    depth: row.depth,
    seq: row.seq,
    state: 'active',
    attempts: row.attempts,
    notBefore: row.not_before,
  };
  if (row.meta !== null) task.meta = row.meta;
  return task;
}
