import type { Lifecycle } from '../lifecycle.js';
import type { HistoryEntry, HistoryPrune, HistoryStore } from '../types.js';

export class MemoryHistoryStore implements HistoryStore {
  readonly #life: Lifecycle;
  readonly #keep: number;
  readonly #entries = new Map<string, HistoryEntry[]>();

  constructor(life: Lifecycle, keep: number) {
    this.#life = life;
    this.#keep = keep;
  }

  latest(url: string, tag: string): Promise<HistoryEntry | undefined> {
    return this.#life.run(() => {
      const list = this.#entries.get(historyKey(url, tag));
      const last = list?.[list.length - 1];
      return last ? { ...last } : undefined;
    });
  }

  append(entry: HistoryEntry): Promise<void> {
    return this.#life.run(() => {
      const key = historyKey(entry.url, entry.tag);
      const list = this.#entries.get(key) ?? [];
      // Kept sorted by scrapedAt; an equal scrapedAt goes after the existing ones (last appended wins).
      let index = list.length;
      while (index > 0 && list[index - 1]!.scrapedAt > entry.scrapedAt) index--;
      list.splice(index, 0, { url: entry.url, tag: entry.tag, scrapedAt: entry.scrapedAt, value: entry.value });
      if (list.length > this.#keep) list.splice(0, list.length - this.#keep);
      this.#entries.set(key, list);
    });
  }

  delete(url: string, tag: string): Promise<void> {
    return this.#life.run(() => {
      this.#entries.delete(historyKey(url, tag));
    });
  }

  prune({ before, except = [] }: HistoryPrune): Promise<number> {
    return this.#life.run(() => {
      let deleted = 0;
      for (const [key, list] of this.#entries) {
        const last = list[list.length - 1];
        if (!last || last.scrapedAt >= before || except.some((prefix) => last.tag.startsWith(prefix))) continue;
        this.#entries.delete(key);
        deleted++;
      }
      return deleted;
    });
  }

  deleteTag(tag: string): Promise<void> {
    return this.#life.run(() => {
      const prefix = historyKey('', tag);
      for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
    });
  }
}

function historyKey(url: string, tag: string): string {
  return `${tag}\u0000${url}`;
}
