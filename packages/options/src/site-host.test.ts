import { describe, expect, it } from 'vitest';

import { siteHostname } from './site-host.js';

describe('siteHostname', () => {
  it('drops a leading www. and lower-cases', () => {
    expect(siteHostname('WWW.Example.COM')).toBe('example.com');
    expect(siteHostname('example.com')).toBe('example.com');
  });

  it('keeps other subdomains and a www that is not the first label', () => {
    expect(siteHostname('docs.example.com')).toBe('docs.example.com');
    expect(siteHostname('a.www.example.com')).toBe('a.www.example.com');
    expect(siteHostname('www2.example.com')).toBe('www2.example.com');
  });
});
