import { describe, expect, it } from 'vitest';
import { useStores, type StoreFactory } from './harness.js';

/** Change-tracking history: the latest snapshot, bounded per (url, tag). */
export function describeHistoryConformance(factory: StoreFactory): void {
  describe('history', () => {
    const open = useStores(factory);

    it('returns the latest entry per url and tag', async () => {
      const store = await open();
      const url = 'https://example.com/';
      expect(await store.history.latest(url, '')).toBeUndefined();
      await store.history.append({ url, tag: '', scrapedAt: 2_000, value: 'second' });
      await store.history.append({ url, tag: '', scrapedAt: 1_000, value: 'first' });
      await store.history.append({ url, tag: 'prod', scrapedAt: 500, value: 'tagged' });
      expect(await store.history.latest(url, '')).toEqual({ url, tag: '', scrapedAt: 2_000, value: 'second' });
      expect((await store.history.latest(url, 'prod'))!.value).toBe('tagged');
      expect(await store.history.latest('https://example.com/other', '')).toBeUndefined();
      await store.history.append({ url, tag: '', scrapedAt: 2_000, value: 'second again' });
      expect((await store.history.latest(url, ''))!.value).toBe('second again');
    });

    it('deletes every entry of a url and tag, and those only', async (ctx) => {
      const store = await open();
      if (!store.history.delete) return ctx.skip(); // optional in the contract
      const url = 'https://example.com/';
      for (let i = 1; i <= 3; i++) await store.history.append({ url, tag: 'gone', scrapedAt: i, value: `v${i}` });
      await store.history.append({ url, tag: 'kept', scrapedAt: 1, value: 'k' });
      await store.history.append({ url: `${url}other`, tag: 'gone', scrapedAt: 1, value: 'o' });
      await store.history.delete(url, 'gone');
      expect(await store.history.latest(url, 'gone')).toBeUndefined();
      expect((await store.history.latest(url, 'kept'))!.value).toBe('k');
      expect((await store.history.latest(`${url}other`, 'gone'))!.value).toBe('o');
      // Deleting what is not there is no error; the key takes new entries again.
      await store.history.delete(url, 'gone');
      await store.history.append({ url, tag: 'gone', scrapedAt: 4, value: 'again' });
      expect((await store.history.latest(url, 'gone'))!.value).toBe('again');
    });

    it('deletes every entry of a tag, whatever its url, and no other tag', async (ctx) => {
      const store = await open();
      if (!store.history.deleteTag) return ctx.skip(); // optional in the contract
      const urls = ['https://example.com/', 'https://example.com/a', 'https://other.example/b?q=*'];
      // A tag with glob characters, and one its prefix, which must stay.
      for (const url of urls) await store.history.append({ url, tag: 'monitor:[x]*', scrapedAt: 1, value: url });
      await store.history.append({ url: urls[0]!, tag: 'monitor:[x]', scrapedAt: 1, value: 'prefix' });
      await store.history.append({ url: urls[1]!, tag: 'monitor:[x]*:2', scrapedAt: 1, value: 'longer' });
      await store.history.append({ url: urls[2]!, tag: '', scrapedAt: 1, value: 'default' });
      await store.history.deleteTag('monitor:[x]*');
      for (const url of urls) expect(await store.history.latest(url, 'monitor:[x]*')).toBeUndefined();
      expect((await store.history.latest(urls[0]!, 'monitor:[x]'))!.value).toBe('prefix');
      expect((await store.history.latest(urls[1]!, 'monitor:[x]*:2'))!.value).toBe('longer');
      expect((await store.history.latest(urls[2]!, ''))!.value).toBe('default');
      await store.history.deleteTag('monitor:[x]*');
    });

    it('prunes the url and tag pairs not seen since a time, whole, but the tags kept', async (ctx) => {
      const store = await open({ maxHistoryPerUrl: 3 });
      if (!store.history.prune) return ctx.skip(); // optional in the contract
      const [a, b, c] = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c?q=*'];
      // `a` was seen at 5 (its older entries with it), `b` last at 2; a glob-like tag and a kept one.
      for (const at of [1, 2, 5]) await store.history.append({ url: a, tag: '', scrapedAt: at, value: `a${at}` });
      await store.history.append({ url: b, tag: '', scrapedAt: 2, value: 'b' });
      await store.history.append({ url: c, tag: 'monitor:[x]*', scrapedAt: 1, value: 'c' });
      await store.history.append({ url: a, tag: 'crawlkit:run', scrapedAt: 1, value: 'record' });
      await store.history.append({ url: b, tag: 'later', scrapedAt: 9, value: 'b later' });
      expect(await store.history.prune({ before: 5, except: ['crawlkit:'] })).toBe(2);
      expect((await store.history.latest(a, ''))!.value).toBe('a5');
      expect(await store.history.latest(b, '')).toBeUndefined();
      expect(await store.history.latest(c, 'monitor:[x]*')).toBeUndefined();
      expect((await store.history.latest(a, 'crawlkit:run'))!.value).toBe('record');
      expect((await store.history.latest(b, 'later'))!.value).toBe('b later');
      expect(await store.history.prune({ before: 5, except: ['crawlkit:'] })).toBe(0);
      // A pair pruned takes new entries again; without `except` every tag is pruned.
      await store.history.append({ url: b, tag: '', scrapedAt: 6, value: 'b back' });
      expect((await store.history.latest(b, ''))!.value).toBe('b back');
      expect(await store.history.prune({ before: 10 })).toBe(4);
      expect(await store.history.latest(a, 'crawlkit:run')).toBeUndefined();
    });

    it('keeps a bounded history per url and tag', async () => {
      const store = await open({ maxHistoryPerUrl: 2 });
      const url = 'https://example.com/';
      for (let i = 1; i <= 5; i++) await store.history.append({ url, tag: '', scrapedAt: i, value: `v${i}` });
      await store.history.append({ url, tag: 'other', scrapedAt: 1, value: 'o1' });
      expect((await store.history.latest(url, ''))!.value).toBe('v5');
      expect((await store.history.latest(url, 'other'))!.value).toBe('o1');
    });
  });
}
