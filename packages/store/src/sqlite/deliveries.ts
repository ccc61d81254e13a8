import { DeliveryExistsError, JobNotFoundError } from '../errors.js';
import type { Delivery, DeliveryState, DeliveryStore } from '../types.js';
import type { SqliteDatabase, SqlValue } from './database.js';

interface DeliveryRow {
  id: string;
  job_id: string;
  seq: number;
  payload: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
}

const DELIVERY_COLUMNS = 'id, job_id, seq, payload, state, attempts, next_attempt_at, last_error';

/**
 * The head (lowest pending `seq`) of every job with pending deliveries, when it is due. The job ids are walked by a
 * recursive skip-scan over the `deliveries_pending` index, so the cost grows with the number of jobs, not with the
 * backlog: 0.2 ms instead of 27 ms for 30,000 pending events of three jobs.
 */
export const DUE_HEADS = `
  WITH RECURSIVE heads(job_id) AS (
    SELECT min(job_id) FROM deliveries WHERE state = 'pending'
    UNION ALL
    SELECT (SELECT min(job_id) FROM deliveries WHERE state = 'pending' AND job_id > heads.job_id)
    FROM heads WHERE heads.job_id IS NOT NULL
  )
  SELECT ${DELIVERY_COLUMNS.split(', ')
    .map((column) => `d.${column}`)
    .join(', ')}

  FROM heads JOIN deliveries AS d
    ON d.rowid = (SELECT rowid FROM deliveries WHERE state = 'pending' AND job_id = heads.job_id ORDER BY seq LIMIT 1)
  WHERE d.next_attempt_at <= ?
  ORDER BY d.next_attempt_at, d.seq
  LIMIT ?`;

/** The webhook outbox: events are written in the job's transaction order and sent per job in `seq` order. */
export class SqliteDeliveryStore implements DeliveryStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  enqueue(input: Omit<Delivery, 'seq' | 'state' | 'attempts'>): Promise<Delivery> {
    return this.#db.useWrite(() => {
      if (!this.#db.get('SELECT 1 FROM jobs WHERE id = ?', input.jobId)) throw new JobNotFoundError(input.jobId);
      if (this.#db.get('SELECT 1 FROM deliveries WHERE id = ?', input.id)) throw new DeliveryExistsError(input.id);
      const row = this.#db.get<DeliveryRow>(
        `INSERT INTO deliveries (${DELIVERY_COLUMNS})
           VALUES (?, ?, coalesce((SELECT max(seq) FROM deliveries WHERE job_id = ?), 0) + 1, ?, 'pending', 0, ?, ?)
           RETURNING ${DELIVERY_COLUMNS}`,
        input.id,
        input.jobId,
        input.jobId,
        input.payload,
        input.nextAttemptAt,
        input.lastError ?? null,
      )!;
      return toDelivery(row);
    });
  }

  due(now: number, limit: number): Promise<Delivery[]> {
    return this.#db.use(() => {
      if (limit <= 0) return [];
      return this.#db.all<DeliveryRow>(DUE_HEADS, now, limit).map(toDelivery);
    });
  }

  update(
    id: string,
    patch: Partial<Pick<Delivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastError'>>,
  ): Promise<void> {
    return this.#db.useWrite(() => {
      const assignments: [column: string, value: SqlValue][] = [];
      if (patch.state !== undefined) assignments.push(['state', patch.state]);
      // A settled event is never sent again: its body (a whole page, sealed headers) goes, its id and seq stay.
      if (patch.state !== undefined && patch.state !== 'pending') assignments.push(['payload', '']);
      if (patch.attempts !== undefined) assignments.push(['attempts', patch.attempts]);
      if (patch.nextAttemptAt !== undefined) assignments.push(['next_attempt_at', patch.nextAttemptAt]);
      if (Object.hasOwn(patch, 'lastError')) assignments.push(['last_error', patch.lastError ?? null]);
      if (assignments.length === 0) return;
      const set = assignments.map(([column]) => `${column} = ?`).join(', ');
      this.#db.run(`UPDATE deliveries SET ${set} WHERE id = ?`, ...assignments.map(([, value]) => value), id);
    });
  }

  pending(jobId?: string): Promise<Delivery[]> {
    return this.#db.use(() => {
      const rows =
        jobId === undefined
          ? this.#db.all<DeliveryRow>(
              `SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE state = 'pending' ORDER BY job_id, seq`,
            )
          : this.#db.all<DeliveryRow>(
              `SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE state = 'pending' AND job_id = ? ORDER BY seq`,
              jobId,
            );
      return rows.map(toDelivery);
    });
  }
}

function toDelivery(row: DeliveryRow): Delivery {
  const delivery: Delivery = {
    id: row.id,
    jobId: row.job_id,
    seq: row.seq,
    payload: row.payload,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
  };
  if (row.last_error !== null) delivery.lastError = row.last_error;
  return delivery;
}
