import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseSearchQuery } from '../search/query.js';
import { MAX_TEXT } from '../text-digest.js';
import { DRAIN_BATCH, FTS_BATCH, idleTimer } from './search-backlog.js';
import { createSqliteStore, type SqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'ck-search-backlog-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/**
 * A store under a faked clock: no checkpointer thread, which works in real time. Its checkpoint holds the write lock,
 * and an idle write it makes busy is tried again `searchIdleMs` later, on the test's clock, past where it looks.
 */
const onFakeClock = { walCheckpointer: false, searchIdleMs: 200 };

/** Fakes the clock of the idle rule, whose timer is Node's own (see `idleTimer`), for `run`. */
async function withFakeClock(run: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  const real = { ...idleTimer };
  Object.assign(idleTimer, { set: globalThis.setTimeout, clear: globalThis.clearTimeout });
  try {
    await run();
  } finally {
    Object.assign(idleTimer, real);
    vi.useRealTimers();
  }
}

/** Texts waiting for FTS5, and texts FTS5 holds (a size row each), read from the file by another connection. */
function state(store: SqliteStore): { waiting: number; indexed: number } {
  const db = new DatabaseSync(store.path, { readOnly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      waiting: count('SELECT count(*) AS n FROM search_unindexed'),
      indexed: count('SELECT count(*) AS n FROM search_text_docsize'),
    };
  } finally {
    db.close();
  }
}

function putPage(store: SqliteStore, i: number): Promise<void> {
  const url = `https://example.com/${i}`;
  const search = { url, title: `Page ${i}`, description: '', text: `Marker word${i} and the common okapi.` };
  return store.pages.put({ key: `k${i}`, url, cachedAt: i, value: 'v', search });
}

async function putPages(store: SqliteStore, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++) await putPage(store, i);
}

async function found(store: SqliteStore, query: string): Promise<number> {
  const parsed = parseSearchQuery(query);
  if (!parsed.ok) throw new Error(parsed.error);
  return (await store.search!.search({ terms: parsed.terms, limit: 1_000 })).length;
}

/** What `during` answers, and how many times the event loop turned meanwhile. */
async function turnsDuring<T>(during: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const turn = () => {
    turns++;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  const value = await during();
  running = false;
  return { value, turns };
}

describe('the SQLite search backlog', () => {
  it('stores a text with its page and writes it to FTS5 once the store is idle, with no search', async () => {
    const store = await createSqliteStore({ dir: join(root, `s${n++}`), searchIdleMs: 50 });
    // Put in one turn, so they commit together and are read before a timer can run: put one after another, a turn
    // longer than the 50 ms of idleness under load had the writer start in between.
    await Promise.all(Array.from({ length: 2 * FTS_BATCH + 5 }, (_, i) => putPage(store, i)));
    // Written in the page's transaction, not yet tokenized.
    expect(state(store)).toEqual({ waiting: 2 * FTS_BATCH + 5, indexed: 0 });
    await vi.waitFor(() => expect(state(store)).toEqual({ waiting: 0, indexed: 2 * FTS_BATCH + 5 }), {
      timeout: 10_000,
      interval: 20,
    });
    expect(await found(store, 'okapi')).toBe(2 * FTS_BATCH + 5);
    await store.close();
  });

  it('indexes what waits before a search reads, so a page is found as soon as it is stored', async () => {
    const store = await createSqliteStore({ dir: join(root, `s${n++}`), searchIdleMs: 60_000 });
    await putPages(store, 3);
    expect(state(store).waiting).toBe(3);
    expect(await found(store, 'word1')).toBe(1);
    expect(state(store)).toEqual({ waiting: 0, indexed: 3 });
    await store.close();
  });

  it('hands FTS5 texts for BATCH_MS a batch at most: large Chinese texts let the event loop turn too', async () => {
    const store = await createSqliteStore({ dir: join(root, `s${n++}`), searchIdleMs: 60_000 });
    // Words made in JavaScript (pairs of characters): 1.2 million characters, several times BATCH_MS at 10 million a
    // second, in fewer texts than DRAIN_BATCH.
    const body = '网络爬虫可以自动抓取网页内容，我住在北京，每天坐地铁上班。'.repeat(MAX_TEXT / 30);
    const count = 12;
    for (let i = 0; i < count; i++) {
      const url = `https://example.com/${i}`;
      const search = { url, title: `Page ${i}`, description: '', text: body };
      await store.pages.put({ key: `k${i}`, url, cachedAt: i, value: 'v', search });
    }
    const { value, turns } = await turnsDuring(() => found(store, '地铁'));
    expect(value).toBe(count);
    // Written in one go, the search held the thread: no turn of the loop until it answered.
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(state(store)).toEqual({ waiting: 0, indexed: count });
    await store.close();
  });

  it('a search writes what waits a batch at a time, letting the event loop turn between batches', async () => {
    const store = await createSqliteStore({ dir: join(root, `s${n++}`), searchIdleMs: 60_000 });
    await putPages(store, 2 * DRAIN_BATCH + 1);
    const { value, turns } = await turnsDuring(() => found(store, 'okapi'));
    expect(value).toBe(2 * DRAIN_BATCH + 1);
    // Three batches; written in one go, the search held the thread: no turn of the loop until it answered.
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(state(store)).toEqual({ waiting: 0, indexed: 2 * DRAIN_BATCH + 1 });
    await store.close();
  });

  it('waits while texts keep coming: none is indexed until the writes pause for the idle time', async () => {
    // The clock is the test's: the idle rule is about time, and a loaded machine must not move it.
    await withFakeClock(async () => {
      const store = await createSqliteStore({ dir: join(root, `s${n++}`), ...onFakeClock });
      for (let i = 0; i < 30; i++) {
        await putPages(store, 1, i);
        await vi.advanceTimersByTimeAsync(150);
      }
      expect(state(store)).toEqual({ waiting: 30, indexed: 0 });
      await vi.advanceTimersByTimeAsync(60);
      expect(state(store)).toEqual({ waiting: 0, indexed: 30 });
      await store.close();
    });
  });

  it('stops between batches when a new text arrives, and goes on once the writes pause again', async () => {
    await withFakeClock(async () => {
      const store = await createSqliteStore({ dir: join(root, `s${n++}`), ...onFakeClock });
      await putPages(store, 3 * FTS_BATCH);
      await vi.advanceTimersByTimeAsync(200); // idle: the first batch
      expect(state(store)).toEqual({ waiting: 2 * FTS_BATCH, indexed: FTS_BATCH });
      await putPages(store, 1, 3 * FTS_BATCH);
      await vi.advanceTimersByTimeAsync(100);
      expect(state(store)).toEqual({ waiting: 2 * FTS_BATCH + 1, indexed: FTS_BATCH });
      await vi.advanceTimersByTimeAsync(100); // idle again: the rest, a batch at a time
      await vi.advanceTimersByTimeAsync(10);
      expect(state(store)).toEqual({ waiting: 0, indexed: 3 * FTS_BATCH + 1 });
      await store.close();
    });
  });

  it('indexes what waits when the store closes, so the next process opens a complete index', async () => {
    const dir = join(root, `s${n++}`);
    const first = await createSqliteStore({ dir, searchIdleMs: 60_000 });
    await putPages(first, 2 * FTS_BATCH + 5);
    expect(state(first)).toEqual({ waiting: 2 * FTS_BATCH + 5, indexed: 0 });
    await first.close();
    const again = await createSqliteStore({ dir, searchIdleMs: 60_000 });
    expect(state(again)).toEqual({ waiting: 0, indexed: 2 * FTS_BATCH + 5 });
    expect(await found(again, 'okapi')).toBe(2 * FTS_BATCH + 5);
    await again.close();
  });

  it('indexes the texts a killed process (or a close out of time) left waiting once the store is opened again', async () => {
    const dir = join(root, `s${n++}`);
    // A close with no time to index leaves the store as a process killed before its idle turn does.
    const first = await createSqliteStore({ dir, searchIdleMs: 60_000, searchCloseMs: 0 });
    await putPages(first, 10);
    await first.close();
    const again = await createSqliteStore({ dir, searchIdleMs: 50 });
    expect(state(again).waiting).toBe(10);
    await vi.waitFor(() => expect(state(again)).toEqual({ waiting: 0, indexed: 10 }), {
      timeout: 10_000,
      interval: 20,
    });
    await again.close();
  });

  it('takes a page out of the index whether its text was written to FTS5 or still waited', async () => {
    const store = await createSqliteStore({ dir: join(root, `s${n++}`), searchIdleMs: 60_000 });
    await putPages(store, 2);
    expect(await found(store, 'okapi')).toBe(2); // both written to FTS5
    await putPages(store, 1, 2); // this one waits
    expect(await store.pages.deleteByUrl('https://example.com/0')).toBe(1);
    expect(await store.pages.deleteByUrl('https://example.com/2')).toBe(1);
    expect(state(store)).toEqual({ waiting: 0, indexed: 1 });
    expect(await found(store, 'okapi')).toBe(1);
    await store.close();
  });
});
