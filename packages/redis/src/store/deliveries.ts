import {
  DeliveryExistsError,
  newDelivery,
  type Delivery,
  type DeliveryState,
  type DeliveryStore,
} from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import { rethrowNoJob } from './jobs.js';
import { isReply, type ScriptRunner } from './scripts-runner.js';

function parseDelivery(id: string, hash: Record<string, string>): Delivery | undefined {
  if (hash.jobId === undefined) return undefined;
  const delivery: Delivery = {
    id,
    jobId: hash.jobId,
    seq: Number(hash.seq),
    payload: hash.payload ?? '',
    state: hash.state as DeliveryState,
    attempts: Number(hash.attempts ?? 0),
    nextAttemptAt: Number(hash.nextAttemptAt ?? 0),
  };
  if (hash.lastError !== undefined) delivery.lastError = hash.lastError;
  return delivery;
}

/**
 * The webhook outbox: a hash per delivery, and per job a sorted set of its pending deliveries by seq; a set names the
 * jobs with pending deliveries so `due` needs no scan.
 */
export class RedisDeliveryStore implements DeliveryStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;

  constructor(life: Lifecycle, redis: ScriptRunner) {
    this.#life = life;
    this.#redis = redis;
  }

  enqueue(input: Omit<Delivery, 'seq' | 'state' | 'attempts'>): Promise<Delivery> {
    return this.#life.run(async () => {
      let seq: number;
      try {
        seq = Number(
          await this.#redis.run(
            'DELIVERY_ENQUEUE',
            input.jobId,
            input.id,
            input.payload,
            input.nextAttemptAt,
            input.lastError ?? '',
            input.lastError !== undefined ? '1' : '0',
          ),
        );
      } catch (error) {
        if (isReply(error, 'EXISTS')) throw new DeliveryExistsError(input.id);
        rethrowNoJob(error, input.jobId);
      }
      return newDelivery(input, seq);
    });
  }

  due(now: number, limit: number): Promise<Delivery[]> {
    return this.#life.run(async () => {
      const ids = (await this.#redis.run('DELIVERY_DUE', now)) as string[];
      const deliveries = await this.#load(ids);
      return deliveries.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.seq - b.seq).slice(0, Math.max(0, limit));
    });
  }

  update(
    id: string,
    patch: Partial<Pick<Delivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastError'>>,
  ): Promise<void> {
    return this.#life.run(async () => {
      const args: (string | number)[] = [];
      if (patch.attempts !== undefined) args.push('attempts', patch.attempts);
      if (patch.nextAttemptAt !== undefined) args.push('nextAttemptAt', patch.nextAttemptAt);
      if (Object.hasOwn(patch, 'lastError')) {
        args.push('lastError', patch.lastError ?? '', patch.lastError !== undefined ? '1' : '0');
      }
      if (patch.state !== undefined) args.push('state', patch.state);
      await this.#redis.run('DELIVERY_UPDATE', id, ...args);
    });
  }

  pending(jobId?: string): Promise<Delivery[]> {
    return this.#life.run(async () => {
      const jobs = jobId !== undefined ? [jobId] : await this.#redis.client.smembers(this.#redis.key('djobs'));
      const ids: string[] = [];
      for (const job of jobs)
        ids.push(...(await this.#redis.client.zrange(this.#redis.key('j', job, 'dq'), '0', '-1')));
      const deliveries = await this.#load(ids);
      return deliveries
        .filter((d) => d.state === 'pending')
        .sort((a, b) => (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : a.seq - b.seq));
    });
  }

  async #load(ids: readonly string[]): Promise<Delivery[]> {
    if (ids.length === 0) return [];
    const pipeline = this.#redis.client.pipeline();
    for (const id of ids) pipeline.hgetall(this.#redis.key('d', id));
    const replies = (await pipeline.exec()) ?? [];
    const deliveries: Delivery[] = [];
    replies.forEach(([error, hash], i) => {
      if (error) throw error;
      const delivery = parseDelivery(ids[i]!, hash as Record<string, string>);
      if (delivery) deliveries.push(delivery);
    });
    return deliveries;
  }
}
