import type { HistoryEntry, HistoryPrune, HistoryStore } from '../types.js';
import type { SqliteDatabase } from './database.js';

/** Change-tracking snapshots, bounded per (url, tag). */
export class SqliteHistoryStore implements HistoryStore {
  readonly #db: SqliteDatabase;
  readonly #keep: number;

  constructor(db: SqliteDatabase, keep: number) {
    this.#db = db;
    this.#keep = keep;
  }

  latest(url: string, tag: string): Promise<HistoryEntry | undefined> {
    return this.#db.use(() => {
      const row = this.#db.get<{ scraped_at: number; value: string }>(
        'SELECT scraped_at, value FROM history WHERE url = ? AND tag = ? ORDER BY scraped_at DESC, id DESC LIMIT 1',
        url,
        tag,
      );
      return row ? { url, tag, scrapedAt: row.scraped_at, value: row.value } : undefined;
    });
  }

  append(entry: HistoryEntry): Promise<void> {
    return this.#db.useWrite(() => {
      this.#db.run(
        'INSERT INTO history (url, tag, scraped_at, value) VALUES (?, ?, ?, ?)',
        entry.url,
        entry.tag,
        entry.scrapedAt,
        entry.value,
      );
      this.#db.run(
        `DELETE FROM history WHERE id IN (
             SELECT id FROM history WHERE url = ? AND tag = ? ORDER BY scraped_at DESC, id DESC LIMIT -1 OFFSET ?
           )`,
        entry.url,
        entry.tag,
        this.#keep,
      );
    });
  }

  delete(url: string, tag: string): Promise<void> {
    return this.#db.useWrite(() => {
      this.#db.run('DELETE FROM history WHERE url = ? AND tag = ?', url, tag);
    });
  }

  /** In one write transaction: a (url, tag) appended to by another process is seen with its new entry or after. */
  prune({ before, except = [] }: HistoryPrune): Promise<number> {
    // A prefix matched by `substr`, not LIKE or GLOB, whose wildcards a tag may hold.
    const kept = except.map(() => 'substr(tag, 1, length(?)) = ?').join(' OR ') || '0';
    const args = except.flatMap((prefix) => [prefix, prefix]);
    return this.#db.useWrite(() => {
      const gone = this.#db.all<{ url: string; tag: string }>(
        `SELECT url, tag FROM history WHERE NOT (${kept}) GROUP BY url, tag HAVING max(scraped_at) < ?`,
        ...args,
        before,
      );
      for (const { url, tag } of gone) this.#db.run('DELETE FROM history WHERE url = ? AND tag = ?', url, tag);
      return gone.length;
    });
  }

  deleteTag(tag: string): Promise<void> {
    return this.#db.useWrite(() => {
      this.#db.run('DELETE FROM history WHERE tag = ?', tag);
    });
  }
}
