import { Buffer } from 'node:buffer';

import { describe, expect, it } from 'vitest';

import { readSitemap } from './sitemaps.js';

/** A sitemap of one URL whose path is `path` (bytes in the sitemap's encoding, given in hex), declared `encoding`. */
function sitemap(encoding: string | undefined, hexPath: string, prefix: number[] = []): Uint8Array {
  const declaration = encoding ? `<?xml version="1.0" encoding="${encoding}"?>` : '<?xml version="1.0"?>';
  return Buffer.concat([
    Buffer.from(prefix),
    Buffer.from(
      `${declaration}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.test/`,
    ),
    Buffer.from(hexPath, 'hex'),
    Buffer.from('</loc></url></urlset>'),
  ]);
}

const urls = (body: Uint8Array) =>
  readSitemap({ url: 'https://x.test/sitemap.xml', body, maxBytes: 1e6, maxUrls: 10 })?.urls;

describe('a sitemap in a legacy encoding', () => {
  it('is read in the encoding its XML declaration names', () => {
    expect(urls(sitemap('Shift_JIS', '836a8385815b83582f8b4c8e96'))).toEqual(['https://x.test/ニュース/記事']);
    expect(urls(sitemap('euc-kr', 'b4babdba'))).toEqual(['https://x.test/뉴스']);
    expect(urls(sitemap('WINDOWS-1251', 'cdeee2eef1f2e8'))).toEqual(['https://x.test/Новости']);
  });

  it('is UTF-8 when its bytes are, whatever it declares, and when it declares nothing or an unknown encoding', () => {
    const utf8 = Buffer.from('ニュース', 'utf8').toString('hex');
    expect(urls(sitemap('ISO-8859-1', utf8))).toEqual(['https://x.test/ニュース']);
    expect(urls(sitemap(undefined, utf8, [0xef, 0xbb, 0xbf]))).toEqual(['https://x.test/ニュース']);
    expect(urls(sitemap('x-klingon', 'cdeee2'))).toEqual(['https://x.test/\ufffd\ufffd\ufffd']);
  });

  it('is read by its UTF-16 byte-order mark', () => {
    const text = '<urlset><url><loc>https://x.test/ニュース</loc></url></urlset>';
    expect(urls(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toEqual([
      'https://x.test/ニュース',
    ]);
  });
});
