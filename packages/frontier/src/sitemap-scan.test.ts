import { describe, expect, it } from 'vitest';

import { scanSitemapXml } from './sitemap-scan.js';
import { parseSitemap, parseSitemapXml } from './sitemaps.js';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const urlset = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n${body}\n</urlset>\n`;
const noop = { open() {}, text() {}, close() {} };

/** Documents the scan reads itself: each must give what htmlparser2 gives. */
const SCANNED: Record<string, string> = {
  'a urlset with lastmod': urlset(
    Array.from(
      { length: 50 },
      (_, i) =>
        `  <url>\n    <loc>https://site.test/p/${i}</loc>\n    <lastmod>2026-11-${(i % 28) + 1}</lastmod>\n  </url>`,
    ).join('\n'),
  ),
  'an index': `<sitemapindex ${NS}><sitemap><loc>https://site.test/a.xml</loc><lastmod>2026-01-01T00:00:00Z</lastmod></sitemap><sitemap><loc>https://site.test/b.xml</loc></sitemap></sitemapindex>`,
  'entities and character references': urlset(
    '<url><loc>https://site.test/q?a=1&amp;b=2&#38;c=&#x33;&lt;&gt;&quot;&apos;</loc></url>',
  ),
  'image and video extensions, prefixes and attributes': `<urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>https://site.test/a</loc><xhtml:link rel="alternate" hreflang="de" href="https://site.test/de/a?x=1>2"/><image:image><image:loc>https://cdn.test/a.jpg</image:loc></image:image></url></urlset>`,
  'upper-case and prefixed sitemap elements': `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:LOC>https://site.test/x</sm:LOC><sm:lastmod>2026-02-03</sm:lastmod></sm:url></sm:urlset>`,
  'self-closing and empty elements': urlset(
    '<url><loc/></url><url><loc>  </loc></url><url><loc>https://site.test/y</loc><lastmod/></url>',
  ),
  'a bad lastmod and blank text': urlset(
    '<url>\n\t<loc>\n https://site.test/z \n</loc>\n<lastmod>yesterday</lastmod></url>',
  ),
  'an entry with no url': urlset('<url><lastmod>2026-01-01</lastmod></url><url><loc>https://site.test/1</loc></url>'),
};

/** Documents the scan leaves to the parser. */
const LEFT: Record<string, string> = {
  'a comment': urlset('<!-- generated --><url><loc>https://site.test/a</loc></url>'),
  CDATA: urlset('<url><loc><![CDATA[https://site.test/a?x=1&y=2]]></loc></url>'),
  'an HTML entity': urlset('<url><loc>https://site.test/a&nbsp;b</loc></url>'),
  'a bare ampersand': urlset('<url><loc>https://site.test/a?x=1&y=2</loc></url>'),
  'a mismatched close': urlset('<url><loc>https://site.test/a</LOC></url>'),
  'an unclosed element': `<urlset ${NS}><url><loc>https://site.test/a</loc></url>`,
  'a stray <': urlset('<url><loc>https://site.test/a</loc> < </url>'),
  'a processing instruction inside': urlset('<?xml-stylesheet href="s.xsl"?><url><loc>https://site.test/a</loc></url>'),
  'an unpaired quote': `<urlset a="b><url><loc>https://site.test/a</loc></url></urlset>`,
};

describe('scanSitemapXml', () => {
  for (const [name, xml] of Object.entries(SCANNED)) {
    it(`reads ${name} as htmlparser2 does`, () => {
      expect(scanSitemapXml(xml.trimStart(), noop)).toBe(true);
      expect(parseSitemap(xml)).toEqual(parseSitemapXml(xml));
      expect(parseSitemap(xml, 3)).toEqual(parseSitemapXml(xml, 3));
    });
  }

  for (const [name, xml] of Object.entries(LEFT)) {
    it(`leaves ${name} to the parser`, () => {
      expect(scanSitemapXml(xml.trimStart(), noop)).toBe(false);
      expect(parseSitemap(xml)).toEqual(parseSitemapXml(xml));
    });
  }

  it('finds what the parser finds in a sitemap of every kind above', () => {
    const doc = parseSitemap(SCANNED['image and video extensions, prefixes and attributes']!);
    expect(doc.urls).toEqual(['https://site.test/a']);
    expect(parseSitemap(SCANNED['entities and character references']!).urls).toEqual([
      `https://site.test/q?a=1&b=2&c=3<>"'`,
    ]);
    expect(parseSitemap(SCANNED['upper-case and prefixed sitemap elements']!).lastmod).toEqual(
      Float64Array.from([Date.parse('2026-02-03')]),
    );
  });
});
