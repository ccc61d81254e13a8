import { type HistoryEntry, type HistoryPrune, type HistoryStore } from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import { type ScriptRunner } from './scripts-runner.js';

/**
 * Change-tracking snapshots: a sorted set per (tag, url) scored by `scrapedAt`; members start with a global counter
 * so equal times keep append order.
 */
export class RedisHistoryStore implements HistoryStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;
  readonly #keep: number;

  constructor(life: Lifecycle, redis: ScriptRunner, keep: number) {
    this.#life = life;
    this.#redis = redis;
    this.#keep = keep;
  }

  latest(url: string, tag: string): Promise<HistoryEntry | undefined> {
    return this.#life.run(async () => {
      const [member, score] = await this.#redis.client.zrange(
        this.#redis.key('h', historyKey(url, tag)),
        '-1',
        '-1',
        'WITHSCORES',
      );
      if (member === undefined || score === undefined) return undefined;
      return { url, tag, scrapedAt: Number(score), value: member.slice(member.indexOf(':') + 1) };
    });
  }

  append(entry: HistoryEntry): Promise<void> {
    return this.#life.run(async () => {
      await this.#redis.run(
        'HISTORY_APPEND',
        historyKey(entry.url, entry.tag),
        entry.scrapedAt,
        entry.value,
        this.#keep,
      );
    });
  }

  delete(url: string, tag: string): Promise<void> {
    return this.#life.run(async () => {
      await this.#redis.client.del(this.#redis.key('h', historyKey(url, tag)));
    });
  }

  /** Scans every history key (a rare call: `cache prune`), pruning each batch found in one script. */
  prune({ before, except = [] }: HistoryPrune): Promise<number> {
    return this.#life.run(async () => {
      const prefix = this.#redis.key('h', '');
      let cursor = '0';
      let deleted = 0;
      do {
        const [next, keys] = await this.#redis.client.scan(cursor, 'MATCH', `${globEscaped(prefix)}*`, 'COUNT', 1000);
        const candidates = keys
          .map((key) => key.slice(prefix.length))
          .filter((key) => !except.some((tag) => key.startsWith(tag)));
        if (candidates.length > 0) deleted += Number(await this.#redis.run('HISTORY_PRUNE', before, ...candidates));
        cursor = next;
      } while (cursor !== '0');
      return deleted;
    });
  }

  /** Scans the tag's keys (a rare call: a monitor deleted), deleting each batch found. */
  deleteTag(tag: string): Promise<void> {
    return this.#life.run(async () => {
      const match = `${globEscaped(this.#redis.key('h', historyKey('', tag)))}*`;
      let cursor = '0';
      do {
        const [next, keys] = await this.#redis.client.scan(cursor, 'MATCH', match, 'COUNT', 1000);
        if (keys.length > 0) await this.#redis.client.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    });
  }
}

/** A literal for a Redis glob pattern (`SCAN MATCH`). */
function globEscaped(text: string): string {
  return text.replace(/[\\*?[\]]/g, '\\$&');
}

function historyKey(url: string, tag: string): string {
  return `${tag}\u0000${url}`;
}
