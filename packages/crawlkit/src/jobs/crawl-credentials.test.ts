import { describe, expect, it } from 'vitest';

import { crawlPageOptions } from './crawl-credentials.js';

const headers = { Authorization: 'Bearer t0ken', 'User-Agent': 'WikiBot/1.0' };

/** The headers a crawl seeded at `seed` sends to `url`. */
const sent = (seed: string, url: string, given: Record<string, string> = headers) =>
  crawlPageOptions(seed, { headers: given } as never)(url).headers;

// Which URLs are the seed's site is `sameHeaderSite`'s rule, tested in @crawlkit/fetcher (header-site.test).
describe("a crawl's own headers", () => {
  it("go whole to the seed's site", () => {
    expect(sent('https://wiki.corp/', 'https://www.wiki.corp/a')).toEqual(headers);
  });

  it('keep only the user agent elsewhere, or on a URL that does not parse', () => {
    expect(sent('https://wiki.corp/', 'https://cdn.example/a')).toEqual({ 'User-Agent': 'WikiBot/1.0' });
    expect(sent('https://wiki.corp/', 'not a url')).toEqual({ 'User-Agent': 'WikiBot/1.0' });
  });

  it('leave no headers at all elsewhere when there is no user agent among them', () => {
    expect(sent('https://wiki.corp/', 'https://cdn.example/a', { Cookie: 'session=1' })).toBeUndefined();
  });
});
