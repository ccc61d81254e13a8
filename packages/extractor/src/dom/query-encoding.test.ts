import { describe, expect, it } from 'vitest';

import { resolveUrl } from './urls.js';

const base = 'https://example.test/dir/page';

describe('resolveUrl in a page of a legacy charset', () => {
  it.each([
    // the query in the page's charset, the path and the fragment in UTF-8
    ['windows-1252', '/ü/x?q=Müller&n=1#Müller', 'https://example.test/%C3%BC/x?q=M%FCller&n=1#M%C3%BCller'],
    ['windows-1252', '//cdn.example.test/s?q=José', 'https://cdn.example.test/s?q=Jos%E9'],
    ['windows-1252', '?q=€', 'https://example.test/dir/page?q=%80'],
    ['iso-8859-2', '?q=Łódź', 'https://example.test/dir/page?q=%A3%F3d%BC'],
    ['euc-kr', '?q=서울', 'https://example.test/dir/page?q=%BC%AD%BF%EF'],
    // a character the charset lacks is its &#N;
    ['windows-1252', '?q=日本', 'https://example.test/dir/page?q=%26%2326085%3B%26%2326412%3B'],
    // UTF-8 pages, URLs of other schemes and encodings this process lacks keep UTF-8
    ['utf-8', '?q=Müller', 'https://example.test/dir/page?q=M%C3%BCller'],
    ['windows-1252', 'mailto:a@example.test?subject=Grüße', 'mailto:a@example.test?subject=Gr%C3%BC%C3%9Fe'],
    ['windows-1252', 'wss://example.test/s?q=ü', 'wss://example.test/s?q=%C3%BC'],
    ['x-user-defined', '?q=ü', 'https://example.test/dir/page?q=%C3%BC'],
  ])('%s: %s', (encoding, href, expected) => {
    expect(resolveUrl(href, base, encoding)).toBe(expected);
  });
});
