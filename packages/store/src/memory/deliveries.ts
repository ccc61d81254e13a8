import { DeliveryExistsError } from '../errors.js';
import type { Lifecycle } from '../lifecycle.js';
import { newDelivery } from '../records.js';
import type { Delivery, DeliveryStore } from '../types.js';
import type { MemoryJobState } from './job-state.js';

export class MemoryDeliveryStore implements DeliveryStore {
  readonly #life: Lifecycle;
  readonly #jobs: MemoryJobState;
  readonly #byId = new Map<string, Delivery>();
  readonly #lastSeq = new Map<string, number>();

  constructor(life: Lifecycle, jobs: MemoryJobState) {
    this.#life = life;
    this.#jobs = jobs;
  }

  deleteJob(jobId: string): void {
    this.#lastSeq.delete(jobId);
    for (const [id, delivery] of this.#byId) if (delivery.jobId === jobId) this.#byId.delete(id);
  }

  enqueue(input: Omit<Delivery, 'seq' | 'state' | 'attempts'>): Promise<Delivery> {
    return this.#life.run(() => {
      this.#jobs.require(input.jobId);
      if (this.#byId.has(input.id)) throw new DeliveryExistsError(input.id);
      const seq = (this.#lastSeq.get(input.jobId) ?? 0) + 1;
      this.#lastSeq.set(input.jobId, seq);
      const delivery = newDelivery(input, seq);
      this.#byId.set(delivery.id, delivery);
      return { ...delivery };
    });
  }

  due(now: number, limit: number): Promise<Delivery[]> {
    return this.#life.run(() => {
      const heads = new Map<string, Delivery>();
      for (const delivery of this.#byId.values()) {
        if (delivery.state !== 'pending') continue;
        const head = heads.get(delivery.jobId);
        if (!head || delivery.seq < head.seq) heads.set(delivery.jobId, delivery);
      }
      return [...heads.values()]
        .filter((d) => d.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.seq - b.seq)
        .slice(0, Math.max(0, limit))
        .map((d) => ({ ...d }));
    });
  }

  update(
    id: string,
    patch: Partial<Pick<Delivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastError'>>,
  ): Promise<void> {
    return this.#life.run(() => {
      const delivery = this.#byId.get(id);
      if (!delivery) return;
      if (patch.state !== undefined) delivery.state = patch.state;
      // A settled event is never sent again: its body goes, its id and seq stay.
      if (patch.state !== undefined && patch.state !== 'pending') delivery.payload = '';
      if (patch.attempts !== undefined) delivery.attempts = patch.attempts;
      if (patch.nextAttemptAt !== undefined) delivery.nextAttemptAt = patch.nextAttemptAt;
      if (Object.hasOwn(patch, 'lastError')) {
        if (patch.lastError === undefined) delete delivery.lastError;
        else delivery.lastError = patch.lastError;
      }
    });
  }

  pending(jobId?: string): Promise<Delivery[]> {
    return this.#life.run(() => {
      return [...this.#byId.values()]
        .filter((d) => d.state === 'pending' && (jobId === undefined || d.jobId === jobId))
        .sort((a, b) => (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : a.seq - b.seq))
        .map((d) => ({ ...d }));
    });
  }
}
