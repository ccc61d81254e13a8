import { describe, expect, it } from 'vitest';

import { globToPathRegex } from './glob-hint.js';
import { compilePathPattern } from './path-pattern.js';

function matches(regex: string, path: string): boolean {
  return new RegExp(regex).test(path);
}

describe('a glob given as a crawl pattern', () => {
  it('is refused with the regex to write instead, as a Crawlee user writes globs', () => {
    const compiled = compilePathPattern('/docs/deep/**');
    expect(compiled).toEqual({
      error:
        'Invalid regular expression: //docs/deep/**/: Nothing to repeat. includePaths and excludePaths are regular ' +
        "expressions on the URL's path (with regexOnFullURL, the whole URL), not globs: for the glob " +
        '"/docs/deep/**" write "^/docs/deep/"',
    });
    expect(compilePathPattern('**/*.html')).toMatchObject({
      error: expect.stringContaining('write "[^/]*\\\\.html$"'),
    });
    expect(compilePathPattern('http://example.com/shop/**')).toMatchObject({
      error: expect.stringContaining('write "^/shop/"'),
    });
  });

  it('keeps the message of a bad regex that is no glob as it was', () => {
    expect(compilePathPattern('^/docs/(')).toEqual({
      error: 'Invalid regular expression: /^/docs/(/: Unterminated group',
    });
  });

  it('suggests regexes that match what the glob matched', () => {
    const under = globToPathRegex('/docs/**');
    expect(matches(under, '/docs/a/b')).toBe(true);
    expect(matches(under, '/docsearch')).toBe(false);
    const segment = globToPathRegex('/shop/*/item');
    expect(segment).toBe('^/shop/[^/]*/item$');
    expect(matches(segment, '/shop/red/item')).toBe(true);
    expect(matches(segment, '/shop/red/blue/item')).toBe(false);
    const anyDepth = globToPathRegex('/blog/**/post-?.{html,htm}');
    expect(matches(anyDepth, '/blog/post-1.html')).toBe(true);
    expect(matches(anyDepth, '/blog/2024/12/post-2.htm')).toBe(true);
    expect(matches(anyDepth, '/blog/2024/post-10.html')).toBe(false);
  });
});
