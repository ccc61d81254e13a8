import { describe, expect, it } from 'vitest';

import { Lifecycle } from '../lifecycle.js';
import { parseSearchQuery } from '../search/query.js';
import { MemorySearchIndex } from './search.js';

const text = (n: number, words: string) => ({
  url: `https://example.test/${n}`,
  title: `Page ${n}`,
  description: '',
  text: words,
});

function query(q: string) {
  const parsed = parseSearchQuery(q);
  if (!parsed.ok) throw new Error(parsed.error);
  return { terms: parsed.terms, limit: 10 };
}

describe('MemorySearchIndex', () => {
  it('indexes texts when a search runs, not when they are put', async () => {
    const index = new MemorySearchIndex(new Lifecycle());
    for (let n = 0; n < 100; n++) index.putPage(`k${n}`, 1_000 + n, text(n, `common words and token${n}`));
    index.putResult('job', 0, 5_000, text(200, 'a result about herons'));
    expect(index.waiting).toBe(101);
    expect(await index.count()).toBe(101);

    const hits = await index.search(query('token42'));
    expect(hits.map((h) => h.url)).toEqual(['https://example.test/42']);
    expect(index.waiting).toBe(0);
    expect((await index.search(query('herons'))).map((h) => h.url)).toEqual(['https://example.test/200']);
  });

  it('forgets a text removed or replaced before it was indexed', async () => {
    const index = new MemorySearchIndex(new Lifecycle());
    index.putPage('a', 1, text(1, 'first version with kingfishers'));
    index.putPage('a', 2, text(1, 'second version with egrets'));
    index.putPage('b', 3, text(2, 'kingfishers again'));
    index.removePage('b');
    expect(index.waiting).toBe(1);
    expect(await index.search(query('kingfishers'))).toEqual([]);
    expect((await index.search(query('egrets'))).map((h) => h.url)).toEqual(['https://example.test/1']);
    index.removePage('a');
    expect(await index.search(query('egrets'))).toEqual([]);
    expect(await index.count()).toBe(0);
  });

  it('searches made while texts are indexed all see every text put before them', async () => {
    const index = new MemorySearchIndex(new Lifecycle());
    for (let n = 0; n < 200; n++) index.putPage(`k${n}`, n, text(n, `shared term${n}`));
    const [first, second] = await Promise.all([index.search(query('term3')), index.search(query('term199'))]);
    expect(first.map((h) => h.url)).toEqual(['https://example.test/3']);
    expect(second.map((h) => h.url)).toEqual(['https://example.test/199']);
  });

  it("a page and its scrape's result holding one text are both found, and either alone once the other goes", async () => {
    const index = new MemorySearchIndex(new Lifecycle());
    const shared = { ...text(1, 'ospreys over the estuary'), textDigest: 'd1' };
    index.putPage('page', 10, shared);
    index.putResult('job', 0, 10, { ...shared });
    index.putPage('other', 10, { ...text(2, 'ospreys elsewhere'), textDigest: 'd1' });
    const found = await index.search(query('estuary'));
    expect(found.map((h) => [h.url, h.pageKey ?? h.jobId])).toEqual([['https://example.test/1', 'page']]);
    // Another title makes another text, whatever the digest says.
    expect((await index.search(query('elsewhere'))).map((h) => h.url)).toEqual(['https://example.test/2']);
    index.removePage('page');
    expect((await index.search(query('estuary'))).map((h) => h.jobId)).toEqual(['job']);
    index.removeJob('job');
    expect(await index.search(query('estuary'))).toEqual([]);
  });
});
