import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { Lifecycle } from '../lifecycle.js';
import { SqliteDatabase } from './database.js';
import { LATEST_VERSION, MIGRATIONS, migrate } from './migrations.js';
import { parseSearchQuery } from '../search/query.js';
import { words } from '../search/tokens.js';
import { createSqliteStore, type SqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'ck-sqlite-migrations-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function freshDir(): string {
  const dir = join(root, `m${n++}`);
  mkdirSync(dir);
  return dir;
}

function versions(dir: string): number[] {
  const raw = new DatabaseSync(join(dir, 'crawlkit.db'));
  const rows = raw.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
  raw.close();
  return rows.map((r) => r.version);
}

/** A search of `store`: each hit's URL and snippet. */
function finder(store: SqliteStore): (query: string) => Promise<string[][]> {
  return async (query) => {
    const parsed = parseSearchQuery(query);
    if (!parsed.ok) throw new Error(parsed.error);
    return (await store.search!.search({ terms: parsed.terms, limit: 10 })).map((hit) => [hit.url, hit.snippet]);
  };
}

/** The closed store in `dir` keeps one text, in FTS5 too, and FTS5's own check of its index passes. */
function expectOneText(dir: string): void {
  const check = new DatabaseSync(join(dir, 'crawlkit.db'));
  const count = (sql: string) => (check.prepare(sql).get() as { n: number }).n;
  expect(count('SELECT count(*) AS n FROM search_content')).toBe(1);
  expect(count('SELECT count(*) AS n FROM search_text_docsize')).toBe(1);
  check.exec("INSERT INTO search_text (search_text, rank) VALUES ('integrity-check', 1)");
  check.close();
}

/**
 * Pages with search texts as a store at `version` keeps them (`https://example.com/<key>`, times 1000, 2000, ...), not
 * yet in FTS5: the caller writes FTS5 as that version did. Returns the open database.
 */
function searchStoreAt(
  dir: string,
  version: number,
  pages: [key: string, title: string, text: string][],
): DatabaseSync {
  const raw = new DatabaseSync(join(dir, 'crawlkit.db'));
  migrate(new SqliteDatabase(raw, new Lifecycle()), version);
  pages.forEach(([key, title, text], i) => {
    const [id, url, time] = [i + 1, `https://example.com/${key}`, 1000 * (i + 1)];
    raw
      .prepare('INSERT INTO pages (key, url, cached_at, bytes, value) VALUES (?, ?, ?, 1, ?)')
      .run(key, url, time, key);
    raw.prepare("INSERT INTO search_docs (id, hash, refs) VALUES (?, x'00' || ?, 1)").run(id, id);
    raw.prepare("INSERT INTO search_content (id, title, description, text) VALUES (?, ?, '', ?)").run(id, title, text);
    raw
      .prepare("INSERT INTO search_entries (page_key, url, host, time, doc_id) VALUES (?, ?, 'example.com', ?, ?)")
      .run(key, url, time, id);
  });
  return raw;
}

/** A database as version 1 of the store left it, with rows written the way v1 wrote them. */
function createV1Database(dir: string): void {
  const raw = new DatabaseSync(join(dir, 'crawlkit.db'));
  migrate(new SqliteDatabase(raw, new Lifecycle()), 1);
  raw.exec(`
    INSERT INTO pages (key, url, cached_at, bytes, value) VALUES
      ('a', 'https://example.com/a', 1000, 3, 'abc'),
      ('b', 'https://example.com/b', 2000, 3, 'hé');
    INSERT INTO jobs (id, kind, status, request, created_at, updated_at, credits_used, task_seq, result_seq)
      VALUES ('j', 'crawl', 'scraping', '{}', 1, 1, 2, 5, 2);
    INSERT INTO tasks (job_id, seq, key, url, depth, meta, state, attempts, not_before) VALUES
      ('j', 1, 'k1', 'https://example.com/1', 0, NULL, 'done', 1, 0),
      ('j', 2, 'k2', 'https://example.com/2', 1, NULL, 'done', 1, 0),
      ('j', 3, 'k3', 'https://example.com/3', 1, NULL, 'active', 1, 0),
      ('j', 4, 'k4', 'https://example.com/4', 1, 'meta', 'queued', 0, 0),
      ('j', 5, 'k5', 'https://example.com/5', 1, NULL, 'dropped', 0, 0);
    INSERT INTO results (job_id, seq, key, document) VALUES ('j', 1, 'k1', 'd1'), ('j', 2, 'k2', 'dé');
  `);
  raw.close();
}

describe('SQLite schema migrations', () => {
  it('numbers its migrations 1, 2, ... in order', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBe(MIGRATIONS.length);
  });

  it('creates a new store at the latest version', async () => {
    const dir = freshDir();
    await (await createSqliteStore({ dir })).close();
    expect(versions(dir)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('migrates a v1 database on open, keeping and indexing its data', async () => {
    const dir = freshDir();
    createV1Database(dir);
    expect(versions(dir)).toEqual([1]);

    const store = await createSqliteStore({ dir });
    expect(versions(dir)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await store.pages.stats()).toEqual({ entries: 2, bytes: 6 });
    expect((await store.pages.get('b'))!.value).toBe('hé');
    expect(await store.tasks.counts('j')).toEqual({ queued: 1, active: 1, done: 2, failed: 0 });
    expect(await store.results.count('j')).toBe(2);
    // the store budget's counter starts from the documents already stored (UTF-8 bytes)
    expect((await store.jobs.get('j'))!.storedBytes).toBe(5);
    expect(await store.tasks.requeueActive('j')).toBe(1);
    expect((await store.tasks.claim('j', 10, 0)).map((t) => [t.key, t.attempts, t.meta])).toEqual([
      ['k3', 2, undefined],
      ['k4', 1, 'meta'],
    ]);
    expect(await store.tasks.complete('j', { key: 'k3', credits: 1, document: 'd3' })).toEqual({
      duplicate: false,
      resultSeq: 3,
      storedBytes: 7,
    });
    expect(await store.tasks.add('j', [{ key: 'k6', url: 'u', depth: 2 }], { limit: 6 })).toHaveLength(1);
    expect(await store.tasks.counts('j')).toEqual({ queued: 1, active: 1, done: 3, failed: 0 });
    expect((await store.jobs.get('j'))!.creditsUsed).toBe(3);
    await store.pages.put({ key: 'c', url: 'https://example.com/c', cachedAt: 3000, value: 'cc' });
    expect(await store.pages.stats()).toEqual({ entries: 3, bytes: 8 });
    expect(await store.engines.record('j', 'example.com', 'browser')).toEqual({ http: 0, browser: 1 });
    await store.close();

    const again = await createSqliteStore({ dir });
    expect(versions(dir)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await again.tasks.counts('j')).toEqual({ queued: 1, active: 1, done: 3, failed: 0 });
    await again.close();
  });

  it('moves a v7 search index (texts in FTS5 and texts waiting for their batch) to kept texts, searchable', async () => {
    const dir = freshDir();
    const raw = new DatabaseSync(join(dir, 'crawlkit.db'));
    migrate(new SqliteDatabase(raw, new Lifecycle()), 7);
    // As v7 left them: doc 1 written to FTS5, doc 2 still waiting in search_pending.
    raw.exec(`
      INSERT INTO pages (key, url, cached_at, bytes, value) VALUES
        ('a', 'https://example.com/a', 1000, 1, 'a'), ('b', 'https://example.com/b', 2000, 1, 'b');
      INSERT INTO search_docs (id, hash, refs) VALUES (1, x'01', 1), (2, x'02', 1);
      INSERT INTO search_text (rowid, title, description, text) VALUES (1, 'Walrus', '', 'The walrus guards the harbour.');
      INSERT INTO search_pending (doc_id, title, description, text) VALUES (2, 'Pelican', '', 'A pelican fishes.');
      INSERT INTO search_entries (page_key, url, host, time, doc_id) VALUES
        ('a', 'https://example.com/a', 'example.com', 1000, 1), ('b', 'https://example.com/b', 'example.com', 2000, 2);
    `);
    raw.close();

    const store = await createSqliteStore({ dir });
    const find = finder(store);
    expect(await find('walrus')).toEqual([['https://example.com/a', 'The walrus guards the harbour.']]);
    expect(await find('pelican')).toEqual([['https://example.com/b', 'A pelican fishes.']]);
    // A page deleted takes its kept text and its FTS5 rows with it.
    expect(await store.pages.deleteByUrl('https://example.com/a')).toBe(1);
    expect(await find('walrus')).toEqual([]);
    await store.close();
    expectOneText(dir);
  });

  it('indexes a v10 store again by the terms of every script: a word inside a Chinese sentence is found', async () => {
    const dir = freshDir();
    const raw = searchStoreAt(dir, 10, [
      ['a', 'Walrus', 'The walrus guards the harbour.'],
      ['b', '北京', '我住在北京，每天坐地铁上班。'],
    ]);
    // As v10 left them: both texts in FTS5, tokenized by unicode61 (the Chinese sentence one word).
    raw.exec("INSERT INTO search_text (search_text) VALUES ('rebuild')");
    raw.close();

    const store = await createSqliteStore({ dir });
    expect(versions(dir)).toEqual(MIGRATIONS.map((m) => m.version));
    const find = finder(store);
    expect(await find('地铁')).toEqual([['https://example.com/b', '我住在北京，每天坐地铁上班。']]);
    expect(await find('walrus')).toEqual([['https://example.com/a', 'The walrus guards the harbour.']]);
    expect(await store.pages.deleteByUrl('https://example.com/b')).toBe(1);
    expect(await find('地铁')).toEqual([]);
    await store.close();
    expectOneText(dir);
  });

  it('indexes a v11 store again with the marks of Thai and Indic words: ไข้ (a fever) is not ไข่ (an egg)', async () => {
    const dir = freshDir();
    const texts = ['แม่ซื้อไข่ไก่สด', 'วันนี้ผมเป็นไข้หวัด'];
    const raw = searchStoreAt(dir, 11, [
      ['egg', '', texts[0]!],
      ['fever', '', texts[1]!],
    ]);
    // As v11 indexed them: the words without their marks (both ไข).
    const insert = raw.prepare("INSERT INTO search_text (rowid, title, description, text) VALUES (?, '', '', ?)");
    texts.forEach((text, i) =>
      insert.run(
        i + 1,
        words(text)
          .map((w) => w.word.replace(/\p{M}/gu, ''))
          .join(' '),
      ),
    );
    raw.close();

    const store = await createSqliteStore({ dir });
    expect(versions(dir)).toEqual(MIGRATIONS.map((m) => m.version));
    const find = finder(store);
    expect(await find('ไข้')).toEqual([['https://example.com/fever', texts[1]]]);
    expect(await find('ไข่')).toEqual([['https://example.com/egg', texts[0]]]);
    expect(await store.pages.deleteByUrl('https://example.com/egg')).toBe(1);
    expect(await find('ไข่')).toEqual([]);
    await store.close();
    expectOneText(dir);
  });

  it('refuses a database written by a newer schema', async () => {
    const dir = freshDir();
    await (await createSqliteStore({ dir })).close();
    const raw = new DatabaseSync(join(dir, 'crawlkit.db'));
    raw.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(99, 'x', 0);
    raw.close();
    await expect(createSqliteStore({ dir })).rejects.toMatchObject({
      code: 'STORE_SCHEMA_TOO_NEW',
      found: 99,
      supported: LATEST_VERSION,
    });
    // A user who rolled back is told what to do, not only to upgrade: the file was left as it was.
    await expect(createSqliteStore({ dir })).rejects.toThrow(
      `The store has schema version 99, newer than the ${LATEST_VERSION} this version of @crawlkit/store supports: ` +
        'a newer crawlkit migrated it, and nothing was read or written. Install that crawlkit again (upgrade); to ' +
        'roll back, put back the copy of the store taken before the upgrade; or use another store directory.',
    );
  });

  it('refuses a SQLite database that is not a crawlkit store', async () => {
    const dir = freshDir();
    const raw = new DatabaseSync(join(dir, 'crawlkit.db'));
    raw.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
    raw.close();
    await expect(createSqliteStore({ dir })).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      message: expect.stringContaining('invoices'),
    });
    // the message names the file to move aside
    await expect(createSqliteStore({ dir })).rejects.toThrow(join(dir, 'crawlkit.db'));
  });

  it('refuses a file that is not a database', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'crawlkit.db'), 'this is not a database, '.repeat(200));
    await expect(createSqliteStore({ dir })).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      message: expect.stringContaining(join(dir, 'crawlkit.db')),
    });
  });
});
