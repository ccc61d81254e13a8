import { describe, expect, it } from 'vitest';

import { withFlags } from './option-flags.js';

describe('withFlags', () => {
  it('tells an option named by its path with its flag', () => {
    expect(withFlags('The page exceeds the limit (http.limits.maxBodyBytes).')).toBe(
      'The page exceeds the limit (--max-body-bytes).',
    );
    expect(withFlags('`search.provider.url` must be a URL')).toBe(
      '`search.provider.url` (--searxng-url) must be a URL',
    );
  });

  it("tells a body field a message sets to true with the flag that sets it (a crawl's hint)", () => {
    const hint =
      'Only 1 result(s) found. For broader coverage, try crawling with crawlEntireDomain=true or start from a ' +
      'higher-level path like http://127.0.0.1:8080';
    // Before: the hint named only the body field, which the crawl command has no way to set by that name.
    expect(withFlags(hint)).toContain('crawlEntireDomain=true (--crawl-entire-domain) or start');
    expect(withFlags(withFlags(hint))).toBe(withFlags(hint));
    expect(withFlags('notAField=true stays')).toBe('notAField=true stays');
  });

  it("tells a parser's object form as the JSON --parsers takes", () => {
    expect(withFlags("parsers[0].type: Unknown parser 'pdf:fast': write { type: 'pdf', mode: 'fast' }.")).toBe(
      `parsers[0].type: Unknown parser 'pdf:fast': write --parsers '[{"type":"pdf","mode":"fast"}]'.`,
    );
    const unknown =
      "Unknown parser. Use 'pdf' or 'image', or an object: { type: 'pdf', maxPages?, mode?: 'fast' | 'auto' | " +
      "'ocr', pages?, blocks?, pageMarkers? } or { type: 'image' }.";
    expect(withFlags(unknown)).toBe(
      `Unknown parser. Use 'pdf' or 'image', or JSON: --parsers '[{"type":"pdf","mode":"fast"}]' (pdf's keys: ` +
        "maxPages, mode: 'fast' | 'auto' | 'ocr', pages, blocks, pageMarkers).",
    );
  });
});
