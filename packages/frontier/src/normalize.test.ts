import { describe, expect, it } from 'vitest';

import { canonicalUrl, decodePercent, normalizeParsedUrl, normalizeUrl, urlPermutations } from './normalize.js';

describe('normalizeUrl', () => {
  it('folds scheme, www, trailing slash and index pages into one key (reference §13.3)', () => {
    const keys = new Set(urlPermutations('https://firecrawl.dev').map((u) => normalizeUrl(u)));
    expect(urlPermutations('https://firecrawl.dev')).toHaveLength(16);
    expect(keys.size).toBe(1);
  });

  it('drops fragments but keeps client-side routes', () => {
    expect(normalizeUrl('https://a.test/p#section')).toBe(normalizeUrl('https://a.test/p'));
    expect(normalizeUrl('https://a.test/app#/users')).not.toBe(normalizeUrl('https://a.test/app'));
    expect(normalizeUrl('https://a.test/app#!/users')).toContain('#!/users');
  });

  it('sorts query parameters and drops tracking ones', () => {
    expect(normalizeUrl('https://a.test/p?b=2&a=1&utm_source=x&fbclid=y')).toBe(
      normalizeUrl('https://a.test/p?a=1&b=2'),
    );
    expect(normalizeUrl('https://a.test/p?a=1')).not.toBe(normalizeUrl('https://a.test/p?a=2'));
    // A shop's product linked from a recommendation rail, a search result and Google Shopping; the variant stays.
    const product = normalizeUrl('https://a.test/products/boot?variant=7');
    for (const query of [
      'pr_prod_strat=e5&pr_rec_id=1a2&pr_rec_pid=9&pr_ref_pid=7&pr_seq=uniform&variant=7',
      'variant=7&_pos=1&_sid=3f2a&_ss=r',
      '_pos=1&_psq=boot&_ss=e&_v=1.0&variant=7',
      'srsltid=AfmBOoq1&variant=7',
    ]) {
      expect(normalizeUrl(`https://a.test/products/boot?${query}`)).toBe(product);
    }
    expect(normalizeUrl('https://a.test/products/boot?variant=8')).not.toBe(product);
    // A job posting reached from a board's ad: Greenhouse's and Lever's source tags; Greenhouse's `gh_jid` is the job.
    const posting = normalizeUrl('https://a.test/jobs/42');
    for (const query of ['gh_src=abc123', 'lever-source=LinkedIn&lever-origin=applied', 'utm_source=board']) {
      expect(normalizeUrl(`https://a.test/jobs/42?${query}`)).toBe(posting);
    }
    expect(normalizeUrl('https://a.test/careers?gh_jid=7')).not.toBe(normalizeUrl('https://a.test/careers?gh_jid=8'));
    // The same names alone are a site's own: `_pos` pages a list unless Shopify's `_ss` is beside it.
    expect(normalizeUrl('https://a.test/list?_pos=2')).not.toBe(normalizeUrl('https://a.test/list?_pos=3'));
    expect(normalizeUrl('https://a.test/list?_sid=4')).not.toBe(normalizeUrl('https://a.test/list'));
    expect(normalizeUrl('https://a.test/p?a=1', { ignoreQueryParameters: true })).toBe(
      normalizeUrl('https://a.test/p'),
    );
  });

  it("folds a directory listing's column-sort links (Apache's ?C=N;O=D) into the listing", () => {
    const listing = normalizeUrl('http://share.test/docs/');
    for (const sort of ['?C=N;O=D', '?C=M;O=A', '?C=S;O=A', '?C=D;O=D', '?C=N&O=A']) {
      expect(normalizeUrl(`http://share.test/docs/${sort}`)).toBe(listing);
    }
    // Only that pair on a directory: other queries, and the same letters on a page, may name another page.
    expect(normalizeUrl('http://share.test/docs/?C=N;O=D;F=2')).not.toBe(listing);
    expect(normalizeUrl('http://share.test/docs/?C=X;O=D')).not.toBe(listing);
    expect(normalizeUrl('http://share.test/docs/list.php?C=N;O=D')).not.toBe(
      normalizeUrl('http://share.test/docs/list.php'),
    );
  });

  it('drops session ids: a ;jsessionid= path parameter and PHP, ASP and ColdFusion session parameters', () => {
    const page = normalizeUrl('https://a.test/shop/item?id=7');
    expect(normalizeUrl('https://a.test/shop/item;jsessionid=0A1B2C?id=7')).toBe(page);
    expect(normalizeUrl('https://a.test/shop/item;JSESSIONID=0A1B2C.node1?id=7')).toBe(page);
    expect(normalizeUrl('https://a.test/shop/item?id=7&PHPSESSID=abc123')).toBe(page);
    expect(normalizeUrl('https://a.test/shop/item?ASPSESSIONIDQSBRATCS=x&id=7')).toBe(page);
    expect(normalizeUrl('https://a.test/shop/item?id=7&CFID=1&CFTOKEN=2')).toBe(page);
    // Other path parameters, and a generic `sid`, stay: they may name the page.
    expect(normalizeUrl('https://a.test/shop/item;v=2?id=7')).not.toBe(page);
    expect(normalizeUrl('https://a.test/shop/item?id=7&sid=3')).not.toBe(page);
  });

  it("drops phpBB's `sid` and vBulletin's `s` when they hold a 32-digit hex session id, and keeps them otherwise", () => {
    const topic = normalizeUrl('https://forum.test/viewtopic.php?t=1&start=20');
    expect(normalizeUrl('https://forum.test/viewtopic.php?t=1&start=20&sid=0123456789abcdef0123456789ABCDEF')).toBe(
      topic,
    );
    expect(normalizeUrl('https://forum.test/viewtopic.php?sid=fedcba9876543210fedcba9876543210&t=1&start=20')).toBe(
      topic,
    );
    expect(normalizeUrl('https://forum.test/showthread.php?s=0123456789abcdef0123456789abcdef&t=9')).toBe(
      normalizeUrl('https://forum.test/showthread.php?t=9'),
    );
    // Another shape is a page's or a search's own: a store id, a query for a word.
    expect(normalizeUrl('https://forum.test/viewtopic.php?t=1&sid=42')).not.toBe(
      normalizeUrl('https://forum.test/viewtopic.php?t=1'),
    );
    expect(normalizeUrl('https://a.test/search?s=shoes')).not.toBe(normalizeUrl('https://a.test/search'));
  });

  it('normalises host case, default ports and percent-encoding', () => {
    expect(normalizeUrl('HTTP://A.TEST:80/x')).toBe(normalizeUrl('http://a.test/x'));
    expect(normalizeUrl('https://a.test/%7euser/%2f')).toBe(normalizeUrl('https://a.test/~user/%2F'));
    expect(normalizeUrl('http://a.test:8080/x')).not.toBe(normalizeUrl('http://a.test/x'));
  });

  it('keeps scheme and www apart when folding is off', () => {
    expect(normalizeUrl('http://www.a.test/', { foldSimilar: false })).not.toBe(
      normalizeUrl('https://a.test/', { foldSimilar: false }),
    );
  });

  it('gives the same key from a URL its caller parsed, white space at its ends included', () => {
    for (const input of [
      'HTTPS://WWW.A.test:443/index.html?utm_source=x&b=2&a=1#/route',
      'http://a.test/%7euser/',
      ' https://a.test/p ',
      'https://a.test/p\u00a0',
      'https://a.test/p\u3000',
    ]) {
      for (const options of [{}, { foldSimilar: false }, { ignoreQueryParameters: true }]) {
        expect(normalizeParsedUrl(input, new URL(input), options)).toBe(normalizeUrl(input, options));
      }
    }
  });

  it('resolves canonical links', () => {
    expect(canonicalUrl('https://a.test/x/y', '/canon')).toBe('https://a.test/canon');
    expect(canonicalUrl('https://a.test/x/y', 'javascript:void(0)')).toBeUndefined();
  });
});

describe('decodePercent', () => {
  it('decodes UTF-8 escapes and keeps the rest as written', () => {
    expect(decodePercent('/de/%C3%BCber%20uns')).toBe('/de/über uns');
    expect(decodePercent('/en/50%off-sale')).toBe('/en/50%off-sale');
    expect(decodePercent('/a%FF/b%20c%E0%A4%A')).toBe('/a%FF/b c%E0%A4%A');
    expect(decodePercent('/plain')).toBe('/plain');
  });
});
