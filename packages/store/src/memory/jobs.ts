import type { Lifecycle } from '../lifecycle.js';
import { JobExistsError } from '../errors.js';
import { applyJobPatch, type JobPatch } from '../job-patch.js';
import { statusRead } from '../records.js';
import type { JobKind, JobRecord, JobStatus, JobStatusRead, JobStore, TaskInput } from '../types.js';
import type { MemoryJobState } from './job-state.js';
import { type MemoryJob } from './job-state.js';

export class MemoryJobStore implements JobStore {
  readonly #life: Lifecycle;
  readonly #state: MemoryJobState;

  constructor(life: Lifecycle, state: MemoryJobState) {
    this.#life = life;
    this.#state = state;
  }

  create(job: JobRecord, tasks: TaskInput[]): Promise<void> {
    return this.#life.run(() => {
      if (this.#state.jobs.has(job.id)) throw new JobExistsError(job.id);
      const entry: MemoryJob = {
        record: { ...job, storedBytes: 0 },
        leaseUntil: 0,
        tasks: new Map(),
        queue: [],
        counts: { queued: 0, active: 0, done: 0, failed: 0 },
        results: [],
        errors: [],
        robots: new Set(),
        aliases: new Map(),
        engines: new Map(),
      };
      this.#state.add(entry, tasks, Infinity, 0);
      this.#state.jobs.set(job.id, entry);
    });
  }

  get(id: string): Promise<JobRecord | undefined> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      return job ? { ...job.record } : undefined;
    });
  }

  statuses(ids: readonly string[]): Promise<Map<string, JobStatusRead>> {
    return this.#life.run(() => {
      const out = new Map<string, JobStatusRead>();
      for (const id of ids) {
        const job = this.#state.jobs.get(id);
        if (job) out.set(id, statusRead(job.record.status, job.record.expiresAt, job.results.length));
      }
      return out;
    });
  }

  update(id: string, patch: JobPatch): Promise<void> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      if (job) applyJobPatch(job.record, patch, Date.now());
    });
  }

  replaceRequest(id: string, expected: string, request: string): Promise<boolean> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      if (job?.record.request !== expected) return false;
      applyJobPatch(job.record, { request }, Date.now());
      return true;
    });
  }

  list(filter?: { status?: JobStatus[]; kind?: JobKind }): Promise<JobRecord[]> {
    return this.#life.run(() => {
      const records: JobRecord[] = [];
      for (const { record } of this.#state.jobs.values()) {
        if (filter?.status && !filter.status.includes(record.status)) continue;
        if (filter?.kind && record.kind !== filter.kind) continue;
        records.push({ ...record });
      }
      return records.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    });
  }

  delete(id: string): Promise<void> {
    return this.#life.run(() => {
      if (this.#state.jobs.delete(id)) this.#state.onDelete(id);
    });
  }

  deleteExpired(now = Date.now()): Promise<string[]> {
    return this.#life.run(() => {
      const expired: string[] = [];
      for (const [id, job] of this.#state.jobs) {
        if (job.record.expiresAt !== undefined && job.record.expiresAt <= now) expired.push(id);
      }
      for (const id of expired) {
        this.#state.jobs.delete(id);
        this.#state.onDelete(id);
      }
      return expired;
    });
  }

  acquireLease(id: string, owner: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      if (!job) return false;
      if (job.leaseOwner !== undefined && job.leaseOwner !== owner && job.leaseUntil > now) return false;
      job.leaseOwner = owner;
      job.leaseUntil = now + ttlMs;
      return true;
    });
  }

  releaseLease(id: string, owner: string): Promise<void> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      if (job?.leaseOwner !== owner) return;
      delete job.leaseOwner;
      job.leaseUntil = 0;
    });
  }

  leaseHolder(id: string): Promise<{ owner: string; until: number } | undefined> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      return job?.leaseOwner !== undefined ? { owner: job.leaseOwner, until: job.leaseUntil } : undefined;
    });
  }
}
