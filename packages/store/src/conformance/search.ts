import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../search/query.js';
import type { CachedPage, PageCache, SearchIndex, SearchQuery, SearchText } from '../types.js';
import { createJob, taskInputs, skipWithout, useStores, type StoreFactory } from './harness.js';

function text(url: string, title: string, body: string, description = ''): SearchText {
  return { url, title, description, text: body };
}

function page(key: string, cachedAt: number, search?: SearchText): CachedPage {
  const url = search?.url ?? `https://example.com/${key}`;
  return { key, url, cachedAt, value: `value of ${key}`, ...(search ? { search } : {}) };
}

function query(q: string, extra: Partial<SearchQuery> = {}): SearchQuery {
  const parsed = parseSearchQuery(q);
  if (!parsed.ok) throw new Error(parsed.error);
  return { terms: parsed.terms, limit: 10, ...extra };
}

function indexOf(store: PageCache): SearchIndex {
  expect(store.search).toBeDefined();
  return store.search!;
}

const urls = async (store: PageCache, q: string, extra?: Partial<SearchQuery>) =>
  (await indexOf(store).search(query(q, extra))).map((h) => h.url);

const DOCS = [
  text('https://docs.example.com/install', 'Installing the crawler', 'Run pnpm add crawlkit, then crawl a site.'),
  text('https://docs.example.com/proxy', 'Proxies', 'Set a proxy server for every request; the crawler uses it.'),
  text('https://blog.example.org/news', 'Release notes', 'The new crawler is faster. Install it today.'),
  text('https://example.net/cache', 'Page cache', 'Pages are cached for two days; a cache hit costs no request.'),
];

async function seed(store: PageCache, times = [1_000, 2_000, 3_000, 4_000]): Promise<void> {
  for (const [i, doc] of DOCS.entries()) await store.pages.put(page(`k${i}`, times[i]!, doc));
}

/** The search index part: what every driver's `store.search` does, and how it follows the pages and results. */
export function describeSearchConformance(factory: StoreFactory): void {
  describe('search', () => {
    const open = useStores(factory);
    skipWithout(factory, 'search'); // optional in the contract

    it('finds a page by a word of its text, the page titled with it first, with a snippet of the match', async () => {
      const store = await open();
      await seed(store);
      const hits = await indexOf(store).search(query('install'));
      expect(hits.map((h) => h.url)).toEqual(['https://docs.example.com/install', 'https://blog.example.org/news']);
      expect(hits[0]!.title).toBe('Installing the crawler');
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      expect(hits[1]!.snippet).toContain('Install it today');
      expect(hits[0]!.pageKey).toBe('k0');
      expect(hits[0]!.time).toBe(1_000);
      expect(hits[0]!.host).toBe('docs.example.com');
      expect(await urls(store, 'nothingmatches')).toEqual([]);
    });

    it('reads phrases, prefixes and exclusions', async () => {
      const store = await open();
      await seed(store);
      expect(await urls(store, '"proxy server"')).toEqual(['https://docs.example.com/proxy']);
      expect(await urls(store, '"server proxy"')).toEqual([]);
      expect((await urls(store, 'cach*')).sort()).toEqual(['https://example.net/cache']);
      expect(await urls(store, 'crawler -proxy -"install it"')).toEqual(['https://docs.example.com/install']);
      // The phrase is required; the loose word only ranks.
      expect(await urls(store, '"the crawler" uses')).toEqual([
        'https://docs.example.com/proxy',
        'https://docs.example.com/install',
      ]);
    });

    it('reads phrases word by word: folded, digits, repeated and stop words, within one column, never longer than a text', async () => {
      const store = await open();
      const docs: [string, string, string][] = [
        ['cafe', 'Café Über', 'Le café über alles: a naïve résumé of 42 things, then 42nd street.'],
        ['repeat', 'Again', 'The the the proxy proxy server proxy.'],
        ['stop', 'Stop words', 'To be or not to be, that is the question.'],
        ['short', 'Short', 'Proxy.'],
      ];
      for (const [key, title, body] of docs) {
        await store.pages.put(page(key, 1_000, text(`https://phrases.example/${key}`, title, body)));
      }
      const found = async (q: string) => (await urls(store, q)).map((u) => u.slice('https://phrases.example/'.length));
      const cases: [string, string[]][] = [
        ['"cafe uber"', ['cafe']],
        ['"CAFÉ ÜBER" alles', ['cafe']],
        ['"naive resume"', ['cafe']],
        ['"of 42 things"', ['cafe']],
        ['"42nd street"', ['cafe']],
        ['"42 street"', []],
        ['"the the"', ['repeat']],
        ['"proxy proxy server"', ['repeat']],
        ['"proxy server proxy"', ['repeat']],
        ['"server server"', []],
        ['"to be or not to be"', ['stop']],
        ['"not to be or"', []],
        ['"short proxy"', []], // the title's last word and the text's first
        ['"proxy proxy proxy proxy proxy proxy proxy"', []],
        ['proxy -"proxy server"', ['short']],
        ['proxy -"server proxy" -"short"', []],
      ];
      for (const [q, expected] of cases) expect([q, await found(q)]).toEqual([q, expected]);
      // Hits of a phrase rank: the title's more than the text's.
      await store.pages.put(page('titled', 1_000, text('https://phrases.example/titled', 'Proxy server', 'Words.')));
      expect(await found('"proxy server"')).toEqual(['titled', 'repeat']);
    });

    it('expands a prefix in any script: the words it starts, in Cyrillic and Greek too', async () => {
      const store = await open();
      await store.pages.put(page('ru', 1_000, text('https://example.ru/', 'Привет', 'Краулер сохраняет страницы.')));
      await store.pages.put(page('el', 2_000, text('https://example.gr/', 'Γεια', 'Ο ανιχνευτής αποθηκεύει σελίδες.')));
      expect(await urls(store, 'краул*')).toEqual(['https://example.ru/']);
      expect(await urls(store, 'страниц*')).toEqual(['https://example.ru/']);
      expect(await urls(store, 'σελ*')).toEqual(['https://example.gr/']);
    });

    it("shows the passage that matched, else the page's description, else its text's start, never its title again", async () => {
      const store = await open();
      const put = (key: string, title: string, description: string, text: string) =>
        store.pages.put({
          key,
          url: `https://example.com/${key}`,
          cachedAt: 1_000,
          value: key,
          search: { url: `https://example.com/${key}`, title, description, text },
        });
      await put('proxies', 'Proxies | Harbor Docs', '', 'Proxies\nSet a proxy server for every request.');
      await put(
        'cache',
        'Page cache | Harbor Docs',
        'How the page cache works.',
        'Page cache\nPages are kept two days.',
      );
      const snippets = async (q: string) =>
        Object.fromEntries((await indexOf(store).search(query(q))).map((h) => [h.url, h.snippet]));
      expect(await snippets('proxy')).toEqual({
        'https://example.com/proxies': 'Set a proxy server for every request.',
      });
      expect(await snippets('harbor')).toEqual({
        'https://example.com/proxies': 'Set a proxy server for every request.',
        'https://example.com/cache': 'How the page cache works.',
      });
    });

    it('reads query syntax of other engines as words, never as its own', async () => {
      const store = await open();
      await seed(store);
      for (const q of ['proxy NEAR server', 'proxy AND (server', 'proxy) OR "', 'proxy*)', '^proxy: {server}']) {
        expect(await urls(store, q)).toContain('https://docs.example.com/proxy');
      }
    });

    it('filters by host (subdomains included) and by time', async () => {
      const store = await open();
      await seed(store);
      expect(await urls(store, 'crawler', { includeHosts: ['example.com'] })).toEqual([
        'https://docs.example.com/install',
        'https://docs.example.com/proxy',
      ]);
      expect(await urls(store, 'crawler', { excludeHosts: ['docs.example.com'] })).toEqual([
        'https://blog.example.org/news',
      ]);
      expect(await urls(store, 'crawler', { includeHosts: ['ample.com'] })).toEqual([]);
      expect((await urls(store, 'crawler', { since: 2_000, until: 3_000 })).sort()).toEqual([
        'https://blog.example.org/news',
        'https://docs.example.com/proxy',
      ]);
    });

    it('answers at most `limit` hits', async () => {
      const store = await open();
      await seed(store);
      expect(await urls(store, 'crawler', { limit: 1 })).toEqual(['https://docs.example.com/install']);
    });

    it('follows the page cache: a re-put replaces the text, a put without text drops it, deletes take it out', async () => {
      const store = await open();
      await seed(store);
      expect(await indexOf(store).count()).toBe(4);
      await store.pages.put(page('k1', 5_000, text('https://docs.example.com/proxy', 'Proxies', 'Now about tunnels.')));
      expect(await urls(store, 'server')).toEqual([]);
      expect(await urls(store, 'tunnels')).toEqual(['https://docs.example.com/proxy']);
      await store.pages.put(page('k1', 6_000));
      expect(await urls(store, 'tunnels')).toEqual([]);
      expect(await indexOf(store).count()).toBe(3);
      expect(await store.pages.deleteByUrl('https://example.net/cache')).toBe(1);
      expect(await urls(store, 'cache')).toEqual([]);
      expect(await store.pages.prune({ olderThan: 1_500, now: 3_000 })).toBe(1);
      expect(await urls(store, 'crawler')).toEqual(['https://blog.example.org/news']);
      await store.pages.clear();
      expect(await indexOf(store).count()).toBe(0);
      expect(await urls(store, 'crawler')).toEqual([]);
    });

    it('follows a touch: the entry keeps its text, URL and host at its new time', async (ctx) => {
      const store = await open();
      // Optional in the contract: a driver without it has each confirmed copy written again.
      const touch = store.pages.touch?.bind(store.pages);
      if (!touch) return ctx.skip();
      await seed(store);
      const before = await indexOf(store).search(query('proxy'));
      expect(await touch('k1', 9_000)).toBe(true);
      const after = await indexOf(store).search(query('proxy'));
      expect(after).toEqual(before.map((hit) => ({ ...hit, time: 9_000 })));
      expect(await urls(store, 'crawler', { since: 5_000 })).toEqual(['https://docs.example.com/proxy']);
      expect(await urls(store, 'crawler', { until: 2_000 })).toEqual(['https://docs.example.com/install']);
      expect(await indexOf(store).count()).toBe(4);
    });

    it('follows many writes: pages put, replaced and deleted across batches are found exactly as stored', async () => {
      const store = await open();
      const url = (i: number) => `https://many.example/${i}`;
      const body = (i: number, word: string) => text(url(i), `Page ${i}`, `Common words for all. Marker ${word}${i}.`);
      for (let i = 0; i < 150; i++) await store.pages.put(page(`m${i}`, 1_000 + i, body(i, 'alpha')));
      for (let i = 0; i < 150; i += 3) expect(await store.pages.deleteByUrl(url(i))).toBe(1);
      for (let i = 1; i < 150; i += 5) await store.pages.put(page(`m${i}`, 5_000 + i, body(i, 'beta')));
      // A page deleted and put again (6, 21, …) is stored again.
      const stored = Array.from({ length: 150 }, (_, i) => i).filter((i) => i % 3 !== 0 || i % 5 === 1);
      expect((await urls(store, 'common', { limit: 200 })).sort()).toEqual(stored.map(url).sort());
      expect(await urls(store, 'alpha3')).toEqual([]);
      expect(await urls(store, 'beta6')).toEqual([url(6)]);
      expect(await urls(store, 'alpha1')).toEqual([]);
      expect(await urls(store, 'beta1')).toEqual([url(1)]);
      expect(await urls(store, 'alpha2')).toEqual([url(2)]);
      expect(await indexOf(store).count()).toBe(stored.length);
    });

    it('drops the text of pages the size cap evicts', async () => {
      const store = await open({ maxPageBytes: 40 });
      await store.pages.put(page('old', 1_000, DOCS[0]));
      await store.pages.put({ ...page('new', 2_000, DOCS[1]), value: 'x'.repeat(30) });
      expect(await store.pages.get('old')).toBeUndefined();
      expect(await urls(store, 'crawler')).toEqual(['https://docs.example.com/proxy']);
      expect(await indexOf(store).count()).toBe(1);
    });

    it('indexes job results with their job, one hit per URL, and drops them with the job', async () => {
      const store = await open();
      await seed(store);
      const id = await createJob(store);
      await store.tasks.add(id, taskInputs(2));
      const result = text('https://docs.example.com/install', 'Installing, again', 'Install crawlkit with npm.');
      await store.tasks.complete(id, { key: 'k0', credits: 1, document: '{}', search: result });
      await store.tasks.complete(id, {
        key: 'k1',
        credits: 1,
        document: '{}',
        search: text('https://other.example/', 'Zebra', 'Zebras only.'),
      });
      expect(await indexOf(store).count()).toBe(6);
      const zebra = await indexOf(store).search(query('zebra'));
      expect(zebra).toHaveLength(1);
      expect(zebra[0]).toMatchObject({ url: 'https://other.example/', jobId: id });
      expect(zebra[0]!.pageKey).toBeUndefined();
      expect((await urls(store, 'install')).filter((u) => u === 'https://docs.example.com/install')).toHaveLength(1);
      await store.jobs.delete(id);
      expect(await urls(store, 'zebra')).toEqual([]);
      expect(await indexOf(store).count()).toBe(4);
    });

    it("answers each URL by its newest entry: a page's older text is not found", async (ctx) => {
      const store = await open();
      const later = Date.now() + 60_000;
      const id = await createJob(store);
      await store.tasks.add(id, taskInputs(1));
      const url = 'https://docs.example.com/walrus';
      await store.tasks.complete(id, { key: 'k0', credits: 1, document: '{}', search: text(url, 'Walrus', 'Walrus.') });
      // The page stored again since the crawl: its text now, the result's its past.
      await store.pages.put(page('w', later, text(url, 'Kiwi', 'Kiwi.')));
      expect(await urls(store, 'walrus')).toEqual([]);
      expect(await indexOf(store).search(query('kiwi'))).toMatchObject([{ url, pageKey: 'w' }]);
      // A copy older than the result is the past text in turn.
      await store.pages.put(page('w', 1_000, text(url, 'Pear', 'Pear.')));
      expect(await urls(store, 'pear')).toEqual([]);
      expect(await indexOf(store).search(query('walrus'))).toMatchObject([{ url, jobId: id }]);
      const touch = store.pages.touch?.bind(store.pages);
      if (!touch) return ctx.skip();
      expect(await touch('w', later)).toBe(true);
      expect(await urls(store, 'pear')).toEqual([url]);
      expect(await urls(store, 'walrus')).toEqual([]);
    });

    it('reads past the older entries of URLs to fill `limit`', async () => {
      const store = await open();
      const later = Date.now() + 60_000;
      const id = await createJob(store);
      await store.tasks.add(id, taskInputs(30));
      for (let i = 0; i < 30; i++) {
        const url = `https://old.example.com/${i}`;
        const search = text(url, 'Zebra zebra', 'Zebra zebra zebra.');
        await store.tasks.complete(id, { key: `k${i}`, credits: 1, document: '{}', search });
        await store.pages.put(page(`o${i}`, later, text(url, 'Gone', 'Nothing here now.')));
      }
      await store.pages.put(page('now', later, text('https://new.example.com/', 'Note', 'A zebra, once.')));
      expect(await urls(store, 'zebra', { limit: 1 })).toEqual(['https://new.example.com/']);
    });

    it('drops the results of expired jobs', async () => {
      const store = await open();
      const id = await createJob(store, { expiresAt: 10 });
      await store.tasks.add(id, taskInputs(1));
      await store.tasks.complete(id, { key: 'k0', credits: 1, document: '{}', search: DOCS[3]! });
      expect(await urls(store, 'cache')).toEqual(['https://example.net/cache']);
      expect(await store.jobs.deleteExpired(20)).toEqual([id]);
      expect(await urls(store, 'cache')).toEqual([]);
    });

    it('indexes nothing with searchIndex: false, and stays a page cache', async () => {
      const store = await open({ searchIndex: false });
      expect(store.search).toBeUndefined();
      await store.pages.put(page('a', 1_000, DOCS[0]));
      expect((await store.pages.get('a'))?.value).toBe('value of a');
    });

    it('rejects with StoreClosedError once closed', async () => {
      const store = await open();
      const index = indexOf(store);
      await store.close();
      await expect(index.search(query('crawler'))).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    });
  });
}
