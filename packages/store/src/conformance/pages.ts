import { describe, expect, it } from 'vitest';
import type { CachedPage } from '../types.js';
import { useStores, type PageCacheFactory } from './harness.js';

function page(
  key: string,
  cachedAt: number,
  value = `value of ${key}`,
  url = `https://example.com/${key}`,
): CachedPage {
  return { key, url, cachedAt, value };
}

export function describePageConformance(factory: PageCacheFactory): void {
  describe('pages', () => {
    const open = useStores(factory);

    it('returns what was put, and undefined for an unknown key', async () => {
      const store = await open();
      await store.pages.put(page('a', 1_000, 'héllo'));
      expect(await store.pages.get('a')).toEqual(page('a', 1_000, 'héllo'));
      expect(await store.pages.get('b')).toBeUndefined();
    });

    it('keeps a body byte for byte beside the value, counts it in stats, and drops it when replaced', async () => {
      const store = await open();
      // Every byte value, and sequences that are not UTF-8: a backend that decoded the body would change them.
      const body = new Uint8Array([...Array.from({ length: 256 }, (_, i) => i), 0xc3, 0x28, 0xff, 0xfe, 0x00]);
      await store.pages.put({ ...page('a', 1_000, '{"v":3}'), body });
      await store.pages.put(page('b', 1_000, 'plain'));
      const got = await store.pages.get('a');
      expect(got?.value).toBe('{"v":3}');
      expect(Buffer.from(got!.body!).equals(Buffer.from(body))).toBe(true);
      expect((await store.pages.get('b'))?.body).toBeUndefined();
      expect(await store.pages.stats()).toEqual({ entries: 2, bytes: 7 + body.length + 5 });
      await store.pages.put(page('a', 2_000, 'new'));
      expect((await store.pages.get('a'))?.body).toBeUndefined();
      expect(await store.pages.stats()).toEqual({ entries: 2, bytes: 3 + 5 });
    });

    it('evicts by the size of values and bodies together', async () => {
      const store = await open({ maxPageBytes: 1_000 });
      await store.pages.put({ ...page('old', 1_000, 'x'), body: new Uint8Array(600) });
      await store.pages.put({ ...page('new', 2_000, 'y'), body: new Uint8Array(600) });
      expect(await store.pages.get('old')).toBeUndefined();
      expect((await store.pages.get('new'))?.body?.byteLength).toBe(600);
      expect(await store.pages.stats()).toEqual({ entries: 1, bytes: 601 });
    });

    it('replaces the entry of a key on put', async () => {
      const store = await open();
      await store.pages.put(page('a', 1_000, 'old'));
      await store.pages.put(page('a', 2_000, 'new', 'https://example.com/other'));
      expect(await store.pages.get('a')).toEqual(page('a', 2_000, 'new', 'https://example.com/other'));
      expect(await store.pages.stats()).toEqual({ entries: 1, bytes: 3 });
    });

    it('honours maxAge inclusively', async () => {
      const store = await open();
      await store.pages.put(page('a', 10_000));
      expect(await store.pages.get('a', { maxAge: 5_000, now: 15_000 })).toBeDefined();
      expect(await store.pages.get('a', { maxAge: 4_999, now: 15_000 })).toBeUndefined();
      expect(await store.pages.get('a', { maxAge: 0, now: 10_000 })).toBeDefined();
    });

    it('honours minAge inclusively, also combined with maxAge', async () => {
      const store = await open();
      await store.pages.put(page('a', 10_000));
      expect(await store.pages.get('a', { minAge: 5_000, now: 15_000 })).toBeDefined();
      expect(await store.pages.get('a', { minAge: 5_001, now: 15_000 })).toBeUndefined();
      expect(await store.pages.get('a', { minAge: 1_000, maxAge: 6_000, now: 15_000 })).toBeDefined();
      expect(await store.pages.get('a', { minAge: 1_000, maxAge: 4_000, now: 15_000 })).toBeUndefined();
    });

    it('measures age against the real clock when now is not given', async () => {
      const store = await open();
      await store.pages.put(page('fresh', Date.now()));
      await store.pages.put(page('stale', Date.now() - 60_000));
      expect(await store.pages.get('fresh', { maxAge: 30_000 })).toBeDefined();
      expect(await store.pages.get('stale', { maxAge: 30_000 })).toBeUndefined();
      expect(await store.pages.get('stale', { minAge: 30_000 })).toBeDefined();
    });

    it('finds a page again after a lookup that did not qualify', async () => {
      const store = await open();
      await store.pages.put(page('a', 10_000));
      expect(await store.pages.get('a', { maxAge: 1, now: 20_000 })).toBeUndefined();
      expect(await store.pages.get('a', { now: 20_000 })).toBeDefined();
    });

    it('hands out copies: mutating a returned page does not change the store', async () => {
      const store = await open();
      await store.pages.put(page('a', 1_000, 'value'));
      const got = (await store.pages.get('a'))!;
      got.value = 'mutated';
      expect((await store.pages.get('a'))!.value).toBe('value');
    });

    it('lists the keys of a url', async (ctx) => {
      const store = await open();
      // Optional in the contract: without it, a `lockdown` miss names no other copy of the page.
      const keysOf = store.pages.keysOf?.bind(store.pages);
      if (!keysOf) return ctx.skip();
      await store.pages.put(page('a1', 1_000, 'x', 'https://example.com/a'));
      await store.pages.put(page('a2', 1_000, 'x', 'https://example.com/a'));
      await store.pages.put(page('b', 1_000, 'x', 'https://example.com/b'));
      expect((await keysOf('https://example.com/a')).toSorted()).toEqual(['a1', 'a2']);
      expect(await keysOf('https://example.com/none')).toEqual([]);
      await store.pages.deleteByUrl('https://example.com/a');
      expect(await keysOf('https://example.com/a')).toEqual([]);
      expect(await keysOf('https://example.com/b')).toEqual(['b']);
    });

    it('deletes by url and counts what it deleted', async () => {
      const store = await open();
      await store.pages.put(page('a1', 1_000, 'x', 'https://example.com/a'));
      await store.pages.put(page('a2', 1_000, 'x', 'https://example.com/a'));
      await store.pages.put(page('b', 1_000, 'x', 'https://example.com/b'));
      await store.pages.get('a1');
      expect(await store.pages.deleteByUrl('https://example.com/a')).toBe(2);
      expect(await store.pages.get('a1')).toBeUndefined();
      expect(await store.pages.get('a2')).toBeUndefined();
      expect(await store.pages.get('b')).toBeDefined();
      expect(await store.pages.deleteByUrl('https://example.com/none')).toBe(0);
      expect(await store.pages.stats()).toEqual({ entries: 1, bytes: 1 });
    });

    it('deletes by url prefix the entries cached before a time, and counts them', async (ctx) => {
      const store = await open();
      // Optional in the contract: without it, kept scrapes stay until the size cap evicts them.
      const deleteByUrlPrefix = store.pages.deleteByUrlPrefix?.bind(store.pages);
      if (!deleteByUrlPrefix) return ctx.skip();
      await store.pages.put(page('scrape:old', 1_000, 'x', 'scrape:old'));
      await store.pages.put(page('scrape:new', 3_000, 'x', 'scrape:new'));
      await store.pages.put(page('scrapes', 1_000, 'x', 'scrapes'));
      await store.pages.put(page('page', 1_000, 'x', 'https://example.com/scrape:old'));
      await store.pages.get('scrape:old');
      expect(await deleteByUrlPrefix('scrape:', 2_000)).toBe(1);
      expect(await store.pages.get('scrape:old')).toBeUndefined();
      expect(await store.pages.get('scrape:new')).toBeDefined();
      expect(await store.pages.get('scrapes')).toBeDefined();
      expect(await store.pages.get('page')).toBeDefined();
      expect(await store.pages.stats()).toEqual({ entries: 3, bytes: 3 });
    });

    it('clears everything', async () => {
      const store = await open();
      await store.pages.put(page('a', 1_000));
      await store.pages.put(page('b', 1_000));
      await store.pages.get('a');
      await store.pages.clear();
      expect(await store.pages.get('a')).toBeUndefined();
      expect(await store.pages.stats()).toEqual({ entries: 0, bytes: 0 });
    });

    it('counts UTF-8 bytes in stats', async () => {
      const store = await open();
      await store.pages.put(page('a', 1_000, 'é€😀'));
      await store.pages.put(page('b', 1_000, 'abc'));
      expect(await store.pages.stats()).toEqual({ entries: 2, bytes: 2 + 3 + 4 + 3 });
    });

    it('prunes entries older than olderThan', async () => {
      const store = await open();
      await store.pages.put(page('old', 1_000));
      await store.pages.put(page('edge', 5_000));
      await store.pages.put(page('new', 9_000));
      await store.pages.get('old');
      expect(await store.pages.prune({ olderThan: 5_000, now: 10_000 })).toBe(1);
      expect(await store.pages.get('old')).toBeUndefined();
      expect(await store.pages.get('edge')).toBeDefined();
      expect(await store.pages.get('new')).toBeDefined();
    });

    it('prunes the oldest entries down to maxBytes', async () => {
      const store = await open();
      await store.pages.put(page('c', 3_000, 'x'.repeat(100)));
      await store.pages.put(page('a', 1_000, 'x'.repeat(100)));
      await store.pages.put(page('b', 2_000, 'x'.repeat(100)));
      await store.pages.put(page('d', 4_000, 'x'.repeat(100)));
      await store.pages.get('a');
      expect(await store.pages.prune({ maxBytes: 250 })).toBe(2);
      expect(await store.pages.get('a')).toBeUndefined();
      expect(await store.pages.get('b')).toBeUndefined();
      expect(await store.pages.get('c')).toBeDefined();
      expect(await store.pages.get('d')).toBeDefined();
      expect(await store.pages.stats()).toEqual({ entries: 2, bytes: 200 });
      expect(await store.pages.prune({ maxBytes: 200 })).toBe(0);
      expect(await store.pages.prune({ maxBytes: 0 })).toBe(2);
      expect(await store.pages.stats()).toEqual({ entries: 0, bytes: 0 });
    });

    it('prunes by age first, then by size, and counts both', async () => {
      const store = await open();
      for (let i = 1; i <= 6; i++) await store.pages.put(page(`p${i}`, i * 1_000, 'x'.repeat(10)));
      expect(await store.pages.prune({ olderThan: 4_500, now: 7_000, maxBytes: 20 })).toBe(4);
      expect(await store.pages.get('p5')).toBeDefined();
      expect(await store.pages.get('p6')).toBeDefined();
    });

    it('evicts the oldest pages by itself when a put takes it over maxPageBytes', async () => {
      const store = await open({ maxPageBytes: 1_000 });
      for (let i = 0; i < 10; i++) await store.pages.put(page(`p${i}`, 1_000 + i, 'x'.repeat(100)));
      expect(await store.pages.stats()).toEqual({ entries: 10, bytes: 1_000 });
      await store.pages.put(page('p10', 2_000, 'x'.repeat(100)));
      const stats = await store.pages.stats();
      expect(stats.bytes).toBeLessThanOrEqual(1_000);
      expect(stats.entries).toBeLessThan(11);
      expect(await store.pages.get('p0')).toBeUndefined();
      expect(await store.pages.get('p10')).toBeDefined();
      expect(await store.pages.get('p9')).toBeDefined();
    });

    it('touches an entry: a new cachedAt, the same value, body and size; false for an unknown key', async (ctx) => {
      const store = await open();
      // Optional in the contract: a driver without it has each confirmed copy written again.
      const touch = store.pages.touch?.bind(store.pages);
      if (!touch) return ctx.skip();
      const body = new Uint8Array([1, 2, 3]);
      await store.pages.put({ ...page('a', 1_000, 'kept'), body });
      const before = await store.pages.stats();
      expect(await touch('a', 5_000)).toBe(true);
      const got = await store.pages.get('a', { now: 5_500, maxAge: 1_000 });
      expect(got).toMatchObject({ key: 'a', cachedAt: 5_000, value: 'kept' });
      expect([...got!.body!]).toEqual([1, 2, 3]);
      expect(await store.pages.get('a', { now: 5_500, minAge: 1_000 })).toBeUndefined();
      expect(await store.pages.stats()).toEqual(before);
      expect(await touch('missing', 5_000)).toBe(false);
      expect(await store.pages.get('missing')).toBeUndefined();
      expect(await store.pages.stats()).toEqual(before);
    });

    it('moves a touched entry to the newest end of the eviction order', async (ctx) => {
      const store = await open({ maxPageBytes: 1_000 });
      const touch = store.pages.touch?.bind(store.pages);
      if (!touch) return ctx.skip();
      await store.pages.put(page('a', 1_000, 'x'.repeat(400)));
      await store.pages.put(page('b', 2_000, 'x'.repeat(400)));
      expect(await touch('a', 3_000)).toBe(true);
      // Over the cap: the oldest goes, and that is now b.
      await store.pages.put(page('c', 4_000, 'x'.repeat(400)));
      expect(await store.pages.get('b')).toBeUndefined();
      expect((await store.pages.get('a'))?.cachedAt).toBe(3_000);
      expect(await store.pages.prune({ olderThan: 1_500, now: 4_000 })).toBe(0);
      expect(await store.pages.get('a')).toBeDefined();
    });
  });
}
