import type { HistoryEntry, HistoryStore } from '../types.js';
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
    return this.#db.use(() =>
      this.#db.write(() => {
        this.#db.run(
          'INSERT INTO history (url, tag, scraped_at, value) VALUES (?, ?, ?, ?)',
          entry.url,
          entry.tag,
          entry.scrapedAt,
          entry.value,
        );
        this.#db.run(
          `DELETE FROM history WHERE id IN (
             SELECT id FROM history WHERE url = ?1 AND tag = ?2 ORDER BY scraped_at DESC, id DESC LIMIT -1 OFFSET ?3
           )`,
          entry.url,
          entry.tag,
          this.#keep,
        );
      }),
    );
  }

  delete(url: string, tag: string): Promise<void> {
    return this.#db.use(() =>
      this.#db.write(() => {
        this.#db.run('DELETE FROM history WHERE url = ? AND tag = ?', url, tag);
      }),
    );
  }

  deleteTag(tag: string): Promise<void> {
    return this.#db.use(() =>
      this.#db.write(() => {
        this.#db.run('DELETE FROM history WHERE tag = ?', tag);
      }),
    );
  }
}
