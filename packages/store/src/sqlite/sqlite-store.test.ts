import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { describeStoreConformance } from '../conformance.js';
import { DUE_HEADS } from './deliveries.js';
import { createSqliteStore } from './sqlite-store.js';
import { parseSearchQuery } from '../search/query.js';
import { searchTextDigest } from '../text-digest.js';
import type { SearchText } from '../types.js';

const root = mkdtempSync(join(tmpdir(), 'ck-sqlite-conformance-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

describeStoreConformance('sqlite', (options) => createSqliteStore({ dir: join(root, `s${n++}`), ...options }));
describeStoreConformance('sqlite without hot tier', (options) =>
  createSqliteStore({ dir: join(root, `s${n++}`), hotTier: false, ...options }),
);

describe('createSqliteStore', () => {
  const dirFor = (name: string) => join(root, `${name}-${n++}`);
  const page = (key: string, cachedAt: number, value = `v-${key}`) => ({
    key,
    url: `https://example.com/${key}`,
    cachedAt,
    value,
  });

  it('keeps its files private (0600), new ones and those of an older store alike', async () => {
    const mode = (path: string) => statSync(path).mode & 0o777;
    const dir = dirFor('private');
    const store = await createSqliteStore({ dir });
    await store.pages.put(page('a', 1));
    expect(mode(dir)).toBe(0o700);
    for (const file of [store.path, `${store.path}-wal`, `${store.path}-shm`]) expect(mode(file)).toBe(0o600);
    await store.close();

    // A store written before (0644, as SQLite makes it by default) is taken down to 0600 when opened.
    chmodSync(store.path, 0o644);
    const again = await createSqliteStore({ dir });
    await again.pages.put(page('b', 2));
    for (const file of [again.path, `${again.path}-wal`, `${again.path}-shm`]) expect(mode(file)).toBe(0o600);
    await again.close();
  });

  it('creates its directory and a WAL-mode database, and removes the WAL on close', async () => {
    const dir = join(dirFor('nested'), 'a', 'b');
    const store = await createSqliteStore({ dir });
    expect(store.kind).toBe('sqlite');
    expect(store.ephemeral).toBe(false);
    expect(store.path).toBe(join(dir, 'crawlkit.db'));
    await store.pages.put(page('a', 1));
    expect(existsSync(`${store.path}-wal`)).toBe(true);
    await store.close();
    expect(existsSync(`${store.path}-wal`)).toBe(false);
    const raw = new DatabaseSync(store.path);
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    raw.close();
  });

  it('keeps everything across a reopen', async () => {
    const dir = dirFor('reopen');
    const first = await createSqliteStore({ dir, fileName: 'other.db' });
    await first.pages.put(page('a', 1_000));
    await first.jobs.create(
      {
        id: 'j',
        kind: 'batch',
        status: 'scraping',
        request: '{"urls":[]}',
        createdAt: 1,
        updatedAt: 1,
        creditsUsed: 0,
      },
      [{ key: 'k', url: 'https://example.com/k', depth: 0, meta: 'm' }],
    );
    await first.tasks.claim('j', 1, 0);
    await first.tasks.complete('j', { key: 'k', credits: 2, document: 'doc' });
    await first.deliveries.enqueue({ id: 'd', jobId: 'j', payload: 'p', nextAttemptAt: 0 });
    await first.history.append({ url: 'https://example.com/', tag: '', scrapedAt: 5, value: 'snap' });
    await first.close();

    const second = await createSqliteStore({ dir, fileName: 'other.db' });
    expect(await second.pages.get('a')).toEqual(page('a', 1_000));
    expect((await second.jobs.get('j'))!.creditsUsed).toBe(2);
    expect(await second.results.list('j', 0, 10)).toEqual([{ seq: 1, key: 'k', document: 'doc' }]);
    expect((await second.deliveries.pending()).map((d) => d.id)).toEqual(['d']);
    expect((await second.history.latest('https://example.com/', ''))!.value).toBe('snap');
    await second.close();
  });

  it('warns STORE_FILE_EMPTY when its file was truncated to 0 bytes, never for a new or a reopened store', async () => {
    const dir = dirFor('truncated');
    const created = await createSqliteStore({ dir });
    expect(created.warnings).toEqual([]);
    await created.pages.put(page('a', 1));
    await created.close();
    const reopened = await createSqliteStore({ dir });
    expect(reopened.warnings).toEqual([]);
    await reopened.close();

    truncateSync(reopened.path, 0);
    const emptied = await createSqliteStore({ dir });
    expect(emptied.warnings).toEqual([{ code: 'STORE_FILE_EMPTY', message: expect.stringContaining(emptied.path) }]);
    expect(await emptied.pages.get('a')).toBeUndefined();
    await emptied.close();
    const again = await createSqliteStore({ dir });
    expect(again.warnings).toEqual([]);
    await again.close();
  });

  it("keeps the hot tier consistent with another connection's writes", async () => {
    const dir = dirFor('hot');
    const a = await createSqliteStore({ dir });
    const b = await createSqliteStore({ dir });
    await a.pages.put(page('k', 1_000, 'from a'));
    expect((await a.pages.get('k'))!.value).toBe('from a');
    await b.pages.put(page('k', 2_000, 'from b'));
    expect(await a.pages.get('k')).toEqual(page('k', 2_000, 'from b'));
    expect(await a.pages.get('k', { maxAge: 500, now: 2_400 })).toBeDefined();

    await b.pages.deleteByUrl('https://example.com/k');
    expect(await a.pages.get('k')).toBeUndefined();

    await a.pages.put(page('k', 3_000));
    expect(await a.pages.get('k')).toBeDefined();
    await b.pages.clear();
    expect(await a.pages.get('k')).toBeUndefined();

    await a.pages.put(page('k', 4_000));
    expect(await a.pages.get('k')).toBeDefined();
    await b.pages.prune({ maxBytes: 0 });
    expect(await a.pages.get('k')).toBeUndefined();

    // Unrelated commits elsewhere only re-validate the hot copy; it stays served.
    await a.pages.put(page('k', 5_000, 'kept'));
    await b.pages.put(page('other', 5_000));
    expect((await a.pages.get('k'))!.value).toBe('kept');
    await Promise.all([a.close(), b.close()]);
  });

  it("does not keep a hot copy a touch finds replaced by another connection's write", async () => {
    const dir = dirFor('hot-touch');
    const a = await createSqliteStore({ dir });
    const b = await createSqliteStore({ dir });
    await a.pages.put(page('k', 1_000, 'from a'));
    expect((await a.pages.get('k'))!.value).toBe('from a');
    await b.pages.put(page('k', 2_000, 'from b'));
    // A 304 in this process confirms the copy it holds, after the other connection replaced the page.
    expect(await a.pages.touch!('k', 3_000)).toBe(true);
    expect(await a.pages.get('k')).toEqual(page('k', 3_000, 'from b'));
    await Promise.all([a.close(), b.close()]);
  });

  it('commits the touches of one turn together, and those still waiting when it closes', async () => {
    const dir = dirFor('touches');
    const a = await createSqliteStore({ dir });
    await a.pages.put(page('k1', 1_000));
    await a.pages.put(page('k2', 1_000));
    const touched = await Promise.all([
      a.pages.touch!('k1', 2_000),
      a.pages.touch!('gone', 2_000),
      a.pages.touch!('k2', 3_000),
    ]);
    expect(touched).toEqual([true, false, true]);
    expect((await a.pages.get('k2'))!.cachedAt).toBe(3_000);
    const last = a.pages.touch!('k1', 4_000);
    await a.close();
    expect(await last).toBe(true);
    await expect(a.pages.touch!('k1', 5_000)).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    const b = await createSqliteStore({ dir });
    expect((await b.pages.get('k1'))!.cachedAt).toBe(4_000);
    await b.close();
  });

  it('commits the puts of one turn together at its end, answering a get of one waiting, and those left on close', async () => {
    const dir = dirFor('puts');
    const a = await createSqliteStore({ dir });
    const other = await createSqliteStore({ dir, hotTier: false });
    const puts = [a.pages.put(page('k1', 1_000)), a.pages.put(page('k2', 1_000)), a.pages.put(page('k1', 2_000))];
    // Not yet committed: another connection sees nothing, this one the page as last put.
    expect(await other.pages.get('k1')).toBeUndefined();
    expect(await a.pages.get('k1')).toMatchObject({ cachedAt: 2_000, value: 'v-k1' });
    expect(await a.pages.get('k1', { maxAge: 500, now: 3_000 })).toBeUndefined();
    await Promise.all(puts);
    expect(await other.pages.get('k1')).toMatchObject({ cachedAt: 2_000 });
    expect(await other.pages.stats()).toEqual({ entries: 2, bytes: 8 });

    // A call that reads or changes the pages commits those waiting first; close commits what is left.
    void a.pages.put(page('k3', 1_000));
    expect(await a.pages.stats()).toEqual({ entries: 3, bytes: 12 });
    const last = a.pages.put(page('k4', 1_000));
    await a.close();
    await last;
    expect(await other.pages.get('k4')).toMatchObject({ cachedAt: 1_000 });
    await other.close();
  });

  it('waits while touches keep coming, turn after turn, and commits them together', async () => {
    const dir = dirFor('touch-stream');
    const a = await createSqliteStore({ dir });
    for (const key of ['k1', 'k2', 'k3']) await a.pages.put(page(key, 1_000));
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const seen: string[] = [];
    const touch = (key: string) => a.pages.touch!(key, 2_000).then((touched) => seen.push(`${key} ${touched}`));
    // One touch a turn, as a recrawl's 304s come back on new connections: none commits before the last has come.
    const first = touch('k1');
    await nextTurn();
    seen.push('turn 1');
    const second = touch('k2');
    await nextTurn();
    seen.push('turn 2');
    const third = touch('k3');
    await Promise.all([first, second, third]);
    expect(seen).toEqual(['turn 1', 'turn 2', 'k1 true', 'k2 true', 'k3 true']);
    for (const key of ['k1', 'k2', 'k3']) expect((await a.pages.get(key))!.cachedAt).toBe(2_000);
    await a.close();
  });

  it("evicts by another connection's cap, and the evicting connection's hot tier forgets the victims", async () => {
    const dir = dirFor('cap');
    const a = await createSqliteStore({ dir, maxPageBytes: 1_000 });
    const b = await createSqliteStore({ dir, maxPageBytes: 1_000 });
    await a.pages.put(page('old', 1, 'x'.repeat(600)));
    expect(await a.pages.get('old')).toBeDefined();
    await b.pages.put(page('new', 2, 'y'.repeat(600)));
    expect(await a.pages.get('old')).toBeUndefined();
    expect(await b.pages.stats()).toEqual({ entries: 1, bytes: 600 });
    await a.pages.put(page('newer', 3, 'z'.repeat(600)));
    expect(await b.pages.get('new')).toBeUndefined();
    expect(await a.pages.get('new')).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it('reads the main content of a text only when its index does not hold it yet (the digest names it)', async () => {
    const store = await createSqliteStore({ dir: dirFor('text-read') });
    let reads = 0;
    const made = (url: string, body: string) => ({
      url,
      title: 'Plane',
      description: '',
      get text() {
        reads++;
        return body;
      },
      textDigest: searchTextDigest(body),
    });
    const put = (key: string, search: SearchText) =>
      store.pages.put({ key, url: key, cachedAt: 1, value: key, search });
    await put('first', { url: 'https://a.test/p', title: 'Plane', description: '', text: 'hone the burr' });
    await put('again', made('https://a.test/again', 'hone the burr'));
    expect(reads).toBe(0);
    await put('other', made('https://a.test/other', 'flatten the sole'));
    expect(reads).toBe(1);
    const keys = async (q: string) => {
      const parsed = parseSearchQuery(q);
      if (!parsed.ok) throw new Error(parsed.error);
      return (await store.search!.search({ terms: parsed.terms, limit: 10 })).map((hit) => hit.pageKey).sort();
    };
    expect(await keys('burr')).toEqual(['again', 'first']);
    expect(await keys('sole')).toEqual(['other']);
    await store.close();
  });

  it('serves pages larger than the hot tier from disk', async () => {
    const store = await createSqliteStore({ dir: dirFor('big'), hotTier: { maxEntries: 2, maxBytes: 4_096 } });
    const big = 'é'.repeat(300_000);
    await store.pages.put(page('big', 1, big));
    for (const key of ['a', 'b', 'c']) await store.pages.put(page(key, 2));
    expect((await store.pages.get('big'))!.value).toBe(big);
    expect((await store.pages.get('a'))!.value).toBe('v-a');
    expect(await store.pages.stats()).toEqual({ entries: 4, bytes: 600_000 + 9 });
    await store.close();
  });

  it('rejects with STORE_BUSY when another connection holds the write lock past busyTimeoutMs', async () => {
    const store = await createSqliteStore({ dir: dirFor('busy'), busyTimeoutMs: 50 });
    await store.pages.put(page('a', 1));
    const other = new DatabaseSync(store.path);
    other.exec('BEGIN IMMEDIATE');
    const busy = store.pages.put(page('b', 1));
    await expect(busy).rejects.toMatchObject({ code: 'STORE_BUSY', name: 'StoreBusyError' });
    // It says what holds it and what to do, where it said 'The store is locked by another process: database is locked'.
    await expect(busy).rejects.toThrow(
      /database is locked \(after waiting for the lock for the store's busy timeout, 5 s .*retry once it is done/,
    );
    // WAL readers are not blocked by a writer.
    expect(await store.pages.get('a')).toBeDefined();
    other.exec('COMMIT');
    other.close();
    await store.pages.put(page('b', 1));
    expect(await store.pages.stats()).toEqual({ entries: 2, bytes: 6 });
    await store.close();
  });

  it('finds due webhook deliveries by index seeks per job, never by scanning the backlog', async () => {
    const store = await createSqliteStore({ dir: dirFor('due') });
    const job = (id: string) => ({
      id,
      kind: 'batch' as const,
      status: 'scraping' as const,
      request: '{}',
      createdAt: 1,
      updatedAt: 1,
      creditsUsed: 0,
    });
    for (const id of ['a', 'b', 'c', 'd']) {
      await store.jobs.create(job(id), []);
      for (let i = 0; i < 50; i++) {
        // Job c's head is not due before t=500; job d has delivered its first 49 events.
        const nextAttemptAt = id === 'c' && i === 0 ? 500 : i;
        await store.deliveries.enqueue({ id: `${id}${i}`, jobId: id, payload: 'p', nextAttemptAt });
        if (id === 'd' && i < 49) await store.deliveries.update(`${id}${i}`, { state: 'delivered' });
      }
    }
    expect((await store.deliveries.due(100, 10)).map((d) => d.id)).toEqual(['a0', 'b0', 'd49']);
    expect((await store.deliveries.due(500, 2)).map((d) => d.id)).toEqual(['a0', 'b0']);
    expect((await store.deliveries.due(500, 10)).map((d) => d.id)).toEqual(['a0', 'b0', 'd49', 'c0']);
    const raw = new DatabaseSync(store.path, { readOnly: true });
    const plan = (raw.prepare(`EXPLAIN QUERY PLAN ${DUE_HEADS}`).all(100, 10) as { detail: string }[]).map(
      (row) => row.detail,
    );
    raw.close();
    await store.close();
    expect(plan.filter((line) => /\bdeliveries\b|\bd\b/.test(line)).length).toBeGreaterThan(0);
    expect(plan.filter((line) => /^SCAN (deliveries|d)\b/.test(line))).toEqual([]);
  });

  it('keeps maxHistoryPerUrl rows per url and tag, the newest', async () => {
    const store = await createSqliteStore({ dir: dirFor('history'), maxHistoryPerUrl: 3 });
    for (let i = 1; i <= 10; i++) await store.history.append({ url: 'u', tag: '', scrapedAt: i, value: `v${i}` });
    await store.history.append({ url: 'u', tag: 't', scrapedAt: 1, value: 't1' });
    await store.close();
    const raw = new DatabaseSync(store.path);
    const rows = raw.prepare("SELECT value FROM history WHERE url = 'u' AND tag = '' ORDER BY scraped_at").all();
    expect(rows.map((r) => r.value)).toEqual(['v8', 'v9', 'v10']);
    raw.close();
  });

  it('validates its options with INVALID_OPTION', async () => {
    await expect(createSqliteStore({ dir: '' })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(createSqliteStore({ dir: dirFor('o'), hotTier: { maxEntries: 0 } })).rejects.toThrow(
      /hotTier\.maxEntries/,
    );
    await expect(createSqliteStore({ dir: dirFor('o'), synchronous: 'bogus' as 'full' })).rejects.toThrow(
      /`synchronous` to be one of `normal`, `full`/,
    );
    await expect(createSqliteStore({ dir: dirFor('o'), busyTimeoutMs: 1.5 })).rejects.toThrow(/busyTimeoutMs/);
  });

  it('fails with STORE_OPEN_FAILED when the directory cannot be created', async () => {
    const file = join(root, `file-${n++}`);
    writeFileSync(file, 'x');
    // Before: 'Cannot create the store in <dir>.', naming neither why nor what to do.
    await expect(createSqliteStore({ dir: join(file, 'sub') })).rejects.toMatchObject({
      code: 'STORE_OPEN_FAILED',
      message: expect.stringMatching(
        /: a part of the path is a file, not a directory \(ENOTDIR\)\. Point storeDir \(--store, or CRAWLKIT_STORE /,
      ),
    });
  });

  it.skipIf(!existsSync('/proc/self'))(
    'fails with STORE_OPEN_FAILED below /proc, where Node.js would loop for ever creating the directory',
    () => {
      // In a child: before, Node's recursive mkdirSync spun there with the event loop blocked, no timer firing.
      const hooks = fileURLToPath(new URL('../../../../test/helpers/source-hooks.ts', import.meta.url));
      const store = fileURLToPath(new URL('./sqlite-store.ts', import.meta.url));
      const script =
        `const { createSqliteStore } = await import(${JSON.stringify(store)});` +
        `try { await createSqliteStore({ dir: '/proc/crawlkit-store' }); } catch (e) { console.log(e.code, e.message); }`;
      const child = spawnSync(process.execPath, ['--import', hooks, '--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(child.signal).toBeNull();
      expect(child.stdout).toMatch(
        /^STORE_OPEN_FAILED Cannot create the store in \/proc\/crawlkit-store: .+\(ENOENT\)/,
      );
    },
  );
});
