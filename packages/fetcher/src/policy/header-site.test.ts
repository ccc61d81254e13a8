import { describe, expect, it } from 'vitest';

import { sameHeaderSite } from './header-site.js';

const same = (from: string, to: string) => sameHeaderSite(new URL(from), new URL(to));

describe("a request's own headers", () => {
  it('may go to its host (www. aside) on its port, and from http up to https', () => {
    expect(same('https://wiki.corp/a', 'https://wiki.corp/b')).toBe(true);
    expect(same('https://wiki.corp/', 'https://WWW.wiki.corp:443/b')).toBe(true);
    expect(same('http://wiki.corp:8080/', 'http://wiki.corp:8080/b')).toBe(true);
    expect(same('http://wiki.corp/', 'https://wiki.corp/b')).toBe(true);
  });

  it('not to another host, another port, nor from https down to http', () => {
    expect(same('https://wiki.corp/', 'https://cdn.example/b')).toBe(false);
    expect(same('https://wiki.corp/', 'https://files.wiki.corp/b')).toBe(false);
    expect(same('https://wiki.corp/', 'https://wiki.corp:8443/b')).toBe(false);
    expect(same('https://wiki.corp/', 'http://wiki.corp/b')).toBe(false);
    expect(same('http://wiki.corp:8080/', 'https://wiki.corp:8443/b')).toBe(false);
  });
});
