import { describe, expect, it } from 'vitest';

import { crawlPageOptions } from './crawl-credentials.js';

const headers = { Authorization: 'Bearer t0ken', 'User-Agent': 'WikiBot/1.0' };

/** The headers a crawl seeded at `seed` sends to `url`. */
const sent = (seed: string, url: string) => crawlPageOptions(seed, { headers } as never)(url).headers;

describe("a crawl's own headers", () => {
  it("go to the seed's site: its host (www. aside), its port, and an upgrade from http to https", () => {
    expect(sent('https://wiki.corp/', 'https://wiki.corp/a')).toEqual(headers);
    expect(sent('https://wiki.corp/', 'https://www.wiki.corp:443/a')).toEqual(headers);
    expect(sent('http://wiki.corp:8080/', 'http://wiki.corp:8080/a')).toEqual(headers);
    expect(sent('http://wiki.corp/', 'https://wiki.corp/a')).toEqual(headers);
  });

  it('keep only the user agent elsewhere: another host, another port, and http under an https seed', () => {
    const ua = { 'User-Agent': 'WikiBot/1.0' };
    expect(sent('https://wiki.corp/', 'https://cdn.example/a')).toEqual(ua);
    expect(sent('https://wiki.corp/', 'https://files.wiki.corp/a')).toEqual(ua);
    expect(sent('https://wiki.corp/', 'https://wiki.corp:8443/a')).toEqual(ua);
    // the token would cross the network in the clear
    expect(sent('https://wiki.corp/', 'http://wiki.corp/a')).toEqual(ua);
    expect(sent('http://wiki.corp:8080/', 'https://wiki.corp:8443/a')).toEqual(ua);
  });
});
