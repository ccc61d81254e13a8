import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import type { Lifecycle } from '../lifecycle.js';
import { indexedText } from '../search/tokens.js';
import type { SqliteDatabase } from './database.js';

/**
 * Texts written to FTS5 per transaction when the store is idle. FTS5 writes a segment of its index at every commit
 * and merges them as they pile up, so a text per transaction costs several times a text in a batch (batches of
 * 128-1,024 measured no better).
 */
export const FTS_BATCH = 64;

/**
 * Texts a search writes per transaction before it lets the event loop turn: 3,000 short texts waiting took 94 ms in
 * one go, 135-153 ms at 64 a turn (blocks of 14-17 ms), 106-108 ms at 256 (blocks of 18-19 ms).
 */
export const DRAIN_BATCH = 4 * FTS_BATCH;

/** The backlog of each database: `insert` reports its new texts there without holding the store. */
const backlogs = new WeakMap<SqliteDatabase, SearchBacklog>();

/** Reports a text listed in `search_unindexed` (inside the write that lists it). */
export function noteUnindexed(db: SqliteDatabase): void {
  backlogs.get(db)?.noteWrite();
}

/**
 * How long a batch hands texts to FTS5 at most (its first text whatever it takes): the words of unspaced script are
 * made in JavaScript (`indexedText`), at 4-10 million characters a second, so 64 of the largest such texts would hold
 * the thread for a second. Other texts go to FTS5's own tokenizer, ten times faster: their batches end by count, as
 * before.
 */
export const BATCH_MS = 100;

/**
 * Writes the texts listed in `search_unindexed` to FTS5, `limit` at most (all by default) and for `BATCH_MS`,
 * those up to the id `upTo` only when given. Call inside a `write`. Returns whether some (up to `upTo`) are left.
 */
export function flushUnindexed(db: SqliteDatabase, limit = -1, upTo?: number): boolean {
  const range = upTo === undefined ? '' : ` WHERE u.doc_id <= ${Math.floor(upTo)}`;
  const rows = db.all<{ id: number; title: string | null; description: string | null; text: string | null }>(
    `SELECT u.doc_id AS id, c.title, c.description, c.text
     FROM search_unindexed u LEFT JOIN search_content c ON c.id = u.doc_id${range} ORDER BY u.doc_id LIMIT ${limit}`,
  );
  const started = performance.now();
  const done: number[] = [];
  for (const row of rows) {
    if (done.length && performance.now() - started >= BATCH_MS) break;
    done.push(row.id);
    if (row.text === null) continue;
    db.run(
      'INSERT INTO search_text (rowid, title, description, text) VALUES (?, ?, ?, ?)',
      row.id,
      indexedText(row.title!),
      indexedText(row.description!),
      indexedText(row.text),
    );
  }
  if (done.length)
    db.run('DELETE FROM search_unindexed WHERE doc_id IN (SELECT value FROM json_each(?))', JSON.stringify(done));
  return db.get(`SELECT 1 FROM search_unindexed u${range} LIMIT 1`) !== undefined;
}

/**
 * The texts stored but not yet in FTS5 (`search_unindexed`), written to it when nothing else is: a page's write
 * only stores its text (in the page's own transaction), and FTS5's tokenizing and segment writes wait until the
 * store has had no new text for `idleMs`, then go `FTS_BATCH` texts per transaction, yielding to the event loop
 * between batches and stopping as soon as a new text arrives. A search first writes whatever waits (`drain`, a batch
 * a turn), so a page is findable as soon as it is stored, and the store's `close` writes it too, for a bounded time
 * (`finish`): a process that stops right after its crawl leaves a complete index, not its indexing to the next one.
 * Since the list is kept in the store's transactions, a killed process leaves nothing out of step: the next one to open
 * the store (or search it) writes what waits.
 */
/**
 * The idle writer's timer: Node's own, which a user's fake timers do not reach. Its tests, whose clock is their own,
 * put the faked ones here.
 */
export const idleTimer = { set: setTimeout, clear: clearTimeout };

export class SearchBacklog {
  readonly #db: SqliteDatabase;
  readonly #life: Lifecycle;
  readonly #idleMs: number;
  #lastWrite = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(db: SqliteDatabase, life: Lifecycle, idleMs: number) {
    this.#db = db;
    this.#life = life;
    this.#idleMs = idleMs;
    backlogs.set(db, this);
    // Texts left waiting by a process that stopped (or another process sharing the file): written once idle.
    if (this.#pending()) this.noteWrite();
  }

  /** A new text waits: index once the store has been idle for `idleMs`. */
  noteWrite(): void {
    this.#lastWrite = performance.now();
    this.#arm(this.#idleMs);
  }

  /**
   * Writes the texts waiting now to FTS5, `DRAIN_BATCH` per transaction, letting the event loop turn between batches:
   * written in one go, the thousands of texts a large crawl leaves held the thread (and every request of a server)
   * for over a second at the first search. Texts stored meanwhile are left to the idle writer.
   */
  async drain(): Promise<void> {
    const last = await this.#db.use(
      () => this.#db.get<{ id: number | null }>('SELECT max(doc_id) AS id FROM search_unindexed')?.id ?? null,
    );
    if (last === null) return;
    while (await this.#db.useWrite(() => flushUnindexed(this.#db, DRAIN_BATCH, last))) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Writes the texts still waiting to FTS5, a batch per transaction, for `budgetMs` at most (the batch under way
   * finishes); what is left stays listed for the next process. Another process holding the lock stops it too.
   * Call before the store closes.
   */
  finish(budgetMs: number): void {
    const started = performance.now();
    try {
      while (performance.now() - started < budgetMs && this.#db.write(() => flushUnindexed(this.#db, FTS_BATCH)));
    } catch {
      // Busy (another process writing) or failing: the texts stay listed for the next process to open the store.
    }
  }

  close(): void {
    idleTimer.clear(this.#timer);
    this.#timer = undefined;
    backlogs.delete(this.#db);
  }

  #pending(): boolean {
    return this.#db.get('SELECT 1 FROM search_unindexed LIMIT 1') !== undefined;
  }

  #arm(ms: number): void {
    if (this.#timer) return;
    this.#timer = idleTimer.set(() => this.#onTimer(), ms).unref();
  }

  #onTimer(): void {
    this.#timer = undefined;
    if (this.#life.closed) return;
    const quiet = performance.now() - this.#lastWrite;
    if (quiet < this.#idleMs) return this.#arm(this.#idleMs - quiet);
    let more: boolean;
    try {
      more = this.#db.write(() => flushUnindexed(this.#db, FTS_BATCH));
    } catch {
      // Busy (another process writing) or failing: the texts stay listed; a search or the next idle turn takes them.
      return this.noteWrite();
    }
    if (more) this.#arm(0);
  }
}
