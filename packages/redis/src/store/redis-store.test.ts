import { randomUUID } from 'node:crypto';

import { afterAll, describe, expect, it } from 'vitest';

import { countTerms, parseSearchQuery, type JobStatusRead } from '@crawlkit/store';
import { describeStoreConformance } from '@crawlkit/store/conformance';

import { testRedis } from '../../../../test/setup/redis.ts';
import { createRedisStore, type RedisStore } from './redis-store.js';
import { entryArgs } from './search.js';

const testRedisUrl = await testRedis();

const url = testRedisUrl ?? '';
const opened: RedisStore[] = [];

async function open(options: Parameters<typeof createRedisStore>[0] = {}): Promise<RedisStore> {
  const store = await createRedisStore({ url, prefix: `ck-test-${randomUUID()}`, ...options });
  opened.push(store);
  return store;
}

afterAll(async () => {
  // Each store wrote under its own prefix: remove what the tests left behind.
  for (const store of opened) {
    const cleaner = await createRedisStore({ url, prefix: store.prefix });
    const keys = await cleaner.client.keys(`${store.prefix}:*`);
    if (keys.length) await cleaner.client.del(...keys);
    await cleaner.close();
  }
});

describe.skipIf(!testRedisUrl)('Redis store', () => {
  describeStoreConformance('redis', (options) => open(options));

  it('is shared: a second client with the same prefix sees the first one writes', async () => {
    const a = await open();
    const b = await createRedisStore({ url, prefix: a.prefix });
    try {
      const now = Date.now();
      await a.jobs.create(
        { id: 'j1', kind: 'crawl', status: 'scraping', request: '{}', createdAt: now, updatedAt: now, creditsUsed: 0 },
        [{ key: 'k', url: 'https://example.com/', depth: 0 }],
      );
      const [claimed] = await b.tasks.claim('j1', 5);
      expect(claimed?.key).toBe('k');
      expect(await a.tasks.claim('j1', 5)).toEqual([]);
      expect(await b.tasks.complete('j1', { key: 'k', credits: 1, document: 'doc' })).toEqual({
        duplicate: false,
        resultSeq: 1,
        storedBytes: 3,
      });
      expect(await a.tasks.complete('j1', { key: 'k', credits: 1, document: 'doc' })).toEqual({ duplicate: true });
      expect(await a.results.list('j1', 0, 10)).toEqual([{ seq: 1, key: 'k', document: 'doc' }]);
    } finally {
      await b.close();
    }
  });

  it('reads the statuses of more jobs than one script call takes (slices of 1,000), each under its own id', async () => {
    const store = await open();
    const now = Date.now();
    const expected = new Map<string, JobStatusRead>();
    const pipeline = store.client.pipeline();
    // The records as the store writes them (a hash each), written at once: 2,346 creates would take seconds.
    // Its results are a list beside it: a job's result seq is their count.
    for (let i = 0; i < 2_346; i++) {
      const read: JobStatusRead = { status: i % 3 === 0 ? 'completed' : 'scraping', resultSeq: i % 7 };
      if (i % 5 === 0) read.expiresAt = now + i;
      expected.set(`job-${i}`, read);
      const { resultSeq, ...fields } = read;
      const record = { id: `job-${i}`, kind: 'crawl', request: '{}', createdAt: now, updatedAt: now, ...fields };
      pipeline.hset(`${store.prefix}:job:job-${i}`, record);
      if (resultSeq > 0)
        pipeline.rpush(`${store.prefix}:j:job-${i}:r`, ...Array.from({ length: resultSeq }, () => '{}'));
    }
    await pipeline.exec();
    expect(await store.jobs.statuses!([...expected.keys(), 'nope'])).toEqual(expected);
    const { resultSeq: _seq, ...fields } = expected.get('job-2340')!;
    expect(await store.jobs.get('job-2340')).toMatchObject(fields);
  });

  it('sets a Redis expiry on every key of a job with expiresAt, and removes it when cleared', async () => {
    const store = await open();
    const now = Date.now();
    await store.jobs.create(
      { id: 'j1', kind: 'batch', status: 'scraping', request: '{}', createdAt: now, updatedAt: now, creditsUsed: 0 },
      [{ key: 'k', url: 'https://example.com/', depth: 0 }],
    );
    await store.tasks.complete('j1', { key: 'k', credits: 1, document: 'doc' });
    const keys = await store.client.keys(`${store.prefix}:j*j1*`);
    expect(keys.length).toBeGreaterThan(5);
    await store.jobs.update('j1', { status: 'completed', expiresAt: now + 60_000 });
    for (const key of keys) {
      const ttl = await store.client.pttl(key);
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(60_000 + 3_600_000);
    }
    await store.jobs.update('j1', { status: 'scraping', expiresAt: undefined });
    for (const key of keys) expect(await store.client.pttl(key)).toBe(-1);
    expect(await store.results.list('j1', 0, 10)).toEqual([{ seq: 1, key: 'k', document: 'doc' }]);
  });

  /** Writes one page's entry as an earlier version indexed it: `terms` in the text, in order; `rule` its sx:rule. */
  async function earlierEntry(store: RedisStore, text: string, terms: string[], rule?: string) {
    const key = (...parts: string[]) => [store.prefix, 'sx', ...parts].join(':');
    const write = store.client
      .multi()
      .hset(key('e', 'p:old'), { len: terms.length, title: '', description: '', text, terms: terms.join(' ') })
      .hset(key('meta'), 'p:old', '1000\t2\texample.com\thttps://example.com/old')
      .zadd(key('u', 'https://example.com/old'), 1000, 'p:old')
      .hset(key('n'), { entries: 1, length: terms.length });
    terms.forEach((term, i) => write.hset(key('t', term), 'p:old', `0,0,1|;;${i}`).zadd(key('vocab'), 0, term));
    if (rule !== undefined) write.set(key('rule'), rule);
    await write.exec();
    return key;
  }

  const finds = (store: RedisStore) => async (q: string) => {
    const parsed = parseSearchQuery(q);
    if (!parsed.ok) throw new Error(parsed.error);
    return (await store.search!.search({ terms: parsed.terms, limit: 10 })).map((h) => h.url);
  };

  it('writes again, at the first search, the entries an earlier version indexed (a Chinese sentence one term)', async () => {
    const store = await open();
    const old = ['我住在北京', '每天坐地铁上班'];
    // As an earlier crawlkit indexed the page: each unspaced run one term.
    const key = await earlierEntry(store, '我住在北京，每天坐地铁上班。', old);
    const find = finds(store);
    expect(await find('地铁')).toEqual(['https://example.com/old']);
    expect(await find('"住在北京"')).toEqual(['https://example.com/old']);
    expect(await store.client.get(key('rule'))).toBe('3');
    expect(await store.client.exists(key('t', old[0]!), key('rule-lock'))).toBe(0);
    expect(await store.client.zscore(key('vocab'), '地铁')).toBe('0');
    expect(await store.client.hget(key('n'), 'entries')).toBe('1');
  });

  it('writes again the entries of rule 2, whose terms lost the marks of Thai words (ไข้ a fever was ไข)', async () => {
    const store = await open();
    const key = await earlierEntry(
      store,
      'วันนี้ผมเป็นไข้หวัด',
      ['วน', 'นน', 'นผ', 'ผม', 'มเ', 'เป', 'ปน', 'นไ', 'ไข', 'ขห', 'หว', 'วด', 'ด'],
      '2',
    );
    const find = finds(store);
    expect(await find('ไข้')).toEqual(['https://example.com/old']);
    expect(await find('ไข่')).toEqual([]);
    expect(await store.client.get(key('rule'))).toBe('3');
    expect(await store.client.exists(key('t', 'ไข'))).toBe(0);
  });

  it("keeps a crawled page's text once: its cache entry and its job's result share it, and it goes with the last", async () => {
    const store = await open();
    const key = (...parts: string[]) => [store.prefix, 'sx', ...parts].join(':');
    const page = 'https://example.com/garden';
    const text = 'The garden by the river keeps a quiet kitchen and a silver window.';
    const search = { url: page, title: 'Garden', description: 'A quiet garden', text };
    const now = Date.now();
    await store.jobs.create(
      { id: 'j1', kind: 'crawl', status: 'scraping', request: '{}', createdAt: now, updatedAt: now, creditsUsed: 0 },
      [{ key: 'k', url: page, depth: 0 }],
    );
    await store.pages.put({ key: 'pk', url: page, cachedAt: now - 1, value: 'v', search });
    await store.tasks.complete('j1', { key: 'k', credits: 1, document: 'doc', search });

    const terms = await store.client.zrange(key('vocab'), '0', '-1');
    expect(terms.length).toBeGreaterThan(5);
    for (const term of terms) expect(await store.client.hlen(key('t', term))).toBe(1);
    const holders = [];
    for (const k of await store.client.keys(key('*'))) {
      if ((await store.client.type(k)) === 'hash' && (await store.client.hget(k, 'text')) === text) holders.push(k);
    }
    expect(holders).toHaveLength(1);
    // Both entries are found as before: the URL's newest, the job's result; the page's once the job is gone.
    expect(await store.search!.count()).toBe(2);
    const find = async (q: string) => {
      const parsed = parseSearchQuery(q);
      if (!parsed.ok) throw new Error(parsed.error);
      return (await store.search!.search({ terms: parsed.terms, limit: 10 })).map((h) => [
        h.jobId ?? h.pageKey,
        h.text,
      ]);
    };
    expect(await find('"silver window"')).toEqual([['j1', text]]);
    await store.jobs.delete('j1');
    expect(await find('"silver window"')).toEqual([['pk', text]]);
    await store.pages.deleteByUrl(page);
    expect(await find('garden')).toEqual([]);
    expect((await store.client.keys(key('*'))).sort()).toEqual([key('n'), key('rule')]);
  });

  it("indexes a text by the terms its writer counted (`counted`), written as the store's own count", async () => {
    const store = await open();
    expect(store.search!.countsAhead).toBe(true);
    const texts = [
      { url: 'https://example.com/a', title: 'Orchard', description: 'Apples', text: 'Ripe apples fall. Apples!' },
      { url: 'https://example.com/b', title: '果园', description: '', text: '苹果成熟了，苹果落下。' },
      { url: 'https://example.com/c', title: '', description: 'x'.repeat(5_000), text: 'y '.repeat(300_000) },
    ];
    for (const text of texts) expect(entryArgs(1, { ...text, counted: countTerms(text) })).toEqual(entryArgs(1, text));
    // The counts are the writer's: a text counted by other words is found by those.
    const other = { ...texts[0]!, text: 'Quiet pears.' };
    const misCounted = { ...texts[0]!, url: 'https://example.com/d', counted: countTerms(other) };
    await store.pages.put({ key: 'd', url: misCounted.url, cachedAt: Date.now(), value: 'v', search: misCounted });
    expect(await finds(store)('pears')).toEqual(['https://example.com/d']);
  });

  it('is not ephemeral, reports its kind and rejects after close', async () => {
    const store = await open();
    expect(store.kind).toBe('redis');
    expect(store.ephemeral).toBe(false);
    await store.close();
    await store.close();
    await expect(store.pages.get('x')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });

  it('rejects with STORE_OPEN_FAILED when Redis is unreachable', async () => {
    await expect(createRedisStore({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 500 })).rejects.toMatchObject({
      code: 'STORE_OPEN_FAILED',
    });
  });

  it('rejects invalid options with INVALID_OPTION', async () => {
    await expect(createRedisStore({ url, maxPageBytes: -1 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(createRedisStore({ url, prefix: '' })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});
