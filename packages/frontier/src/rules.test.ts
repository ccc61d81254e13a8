import { describe, expect, it } from 'vitest';

import { createCrawlRules, inSeedScope, isFileUrl, urlDepth, validateCrawlPatterns } from './rules.js';

const verdict = (seedUrl: string, url: string, options: Record<string, unknown> = {}, fromUrl?: string) => {
  const rules = createCrawlRules({ seedUrl, ...options });
  const v = rules.check(url, fromUrl ? { fromUrl } : {});
  return v.allowed ? 'ALLOWED' : v.reason;
};

describe('crawl rules in order (reference §13.2)', () => {
  const seed = 'https://example.com/docs';
  it.each([
    ['not a url', {}, 'URL_PARSE_ERROR'],
    ['mailto:a@example.com', {}, 'NON_WEB_PROTOCOL'],
    ['tel:+123', {}, 'NON_WEB_PROTOCOL'],
    ['https://example.com/docs/logo.png', {}, 'FILE_TYPE'],
    ['https://example.com/docs/report.pdf', {}, 'ALLOWED'],
    ['https://example.com/docs/page#section', {}, 'ALLOWED'],
    ['https://example.com/blog#section', {}, 'BACKWARD_CRAWLING'],
    ['https://example.com/docs/page#private', { excludePaths: ['private'], regexOnFullURL: true }, 'ALLOWED'],
    ['https://example.com/docs/app#/route', {}, 'ALLOWED'],
    ['https://example.com/blog', {}, 'BACKWARD_CRAWLING'],
    ['https://example.com/docsearch', {}, 'BACKWARD_CRAWLING'],
    ['https://example.com/blog', { crawlEntireDomain: true }, 'ALLOWED'],
    ['https://www.example.com/docs/a', {}, 'ALLOWED'],
    ['https://example.com/docs/private/x', { excludePaths: ['private'] }, 'EXCLUDE_PATTERN'],
    ['https://example.com/docs/a', { includePaths: ['^/docs/b'] }, 'INCLUDE_PATTERN'],
    ['https://example.com/docs/b/1', { includePaths: ['^/docs/b'] }, 'ALLOWED'],
    ['https://twitter.com/acme', { allowExternalLinks: true }, 'SOCIAL_MEDIA'],
    ['https://github.com/acme/x', { allowExternalLinks: true }, 'SOCIAL_MEDIA'],
    ['https://other.org/page', {}, 'EXTERNAL_LINK'],
    ['https://other.org/page', { allowExternalLinks: true }, 'ALLOWED'],
    ['https://other.org/', { allowExternalLinks: true }, 'EXTERNAL_LINK'],
    ['https://other.org/private', { allowExternalLinks: true, excludePaths: ['private'] }, 'EXCLUDE_PATTERN'],
    ['https://blog.example.com/x', {}, 'EXTERNAL_LINK'],
    ['https://blog.example.com/x', { allowSubdomains: true }, 'ALLOWED'],
    ['https://example.co.uk/x', { allowSubdomains: true }, 'EXTERNAL_LINK'],
    [`https://example.com/docs/${'a'.repeat(2030)}`, {}, 'URL_TOO_LONG'],
    [`https://example.com/docs/${'a'.repeat(2000)}`, {}, 'ALLOWED'],
    ['https://example.com/docs/a/b/c/d', { maxUrlLength: 30 }, 'URL_TOO_LONG'],
    ['https://example.com/docs/a/b/a/b/a/b', {}, 'ALLOWED'],
    ['https://example.com/docs/a/b/a/b/a/b/A', {}, 'REPEATING_PATH'],
    ['https://example.com/docs/month/2026-11/month/2026-12/month/2027-01/month/2027-02', {}, 'REPEATING_PATH'],
    ['https://example.com/docs/x/x', { maxPathSegmentRepeats: 1 }, 'REPEATING_PATH'],
    ['https://other.org/a/a/a/a', { allowExternalLinks: true }, 'REPEATING_PATH'],
  ])('%s %j → %s', (url, options, expected) => {
    expect(verdict(seed, url, options)).toBe(expected);
  });

  it('admits a link to a place in a page as the page, without its fragment; a route keeps its own', () => {
    const rules = createCrawlRules({ seedUrl: 'https://example.com/docs/', allowExternalLinks: true });
    const href = (url: string) => {
      const admission = rules.admit(url);
      return admission.allowed ? admission.parsed.href : admission.reason;
    };
    expect(href('https://example.com/docs/page#install')).toBe('https://example.com/docs/page');
    expect(href('https://example.com/docs/page?v=2#')).toBe('https://example.com/docs/page?v=2');
    expect(href('https://example.com/docs/app#/settings')).toBe('https://example.com/docs/app#/settings');
    expect(href('https://example.com/docs/app#!/settings')).toBe('https://example.com/docs/app#!/settings');
    expect(href('https://other.org/guide#top')).toBe('https://other.org/guide');
  });

  it('admits with the URL parsed and whether it is internal, as check and isInternal say', () => {
    const options = { allowExternalLinks: true, allowSubdomains: true, crawlEntireDomain: true };
    const rules = createCrawlRules({ seedUrl: 'https://www.example.com/docs', ...options });
    for (const url of [
      'https://example.com/docs/a?b=1#/r',
      'https://blog.example.com/x',
      'https://other.org/page',
      'https://other.org/',
      'mailto:a@example.com',
      'not a url',
    ]) {
      const admission = rules.admit(url);
      const verdict = rules.check(url);
      expect(admission.allowed).toBe(verdict.allowed);
      if (!admission.allowed || !verdict.allowed) {
        expect(admission).toEqual(verdict);
        continue;
      }
      expect(admission.parsed.href).toBe(new URL(url).href);
      expect(admission.internal).toBe(rules.isInternal(url));
    }
    expect(rules.admit('https://blog.example.com/x')).toMatchObject({ allowed: true, internal: false });
    expect(rules.admit('https://example.com/y')).toMatchObject({ allowed: true, internal: true });
  });

  it('follows external links only from in-scope pages', () => {
    expect(verdict(seed, 'https://other.org/page', { allowExternalLinks: true }, 'https://other.org/x')).toBe(
      'EXTERNAL_LINK',
    );
  });

  it('keeps subdomains with include patterns (item 25)', () => {
    const opts = { includePaths: ['^/pricing$'], allowSubdomains: true, crawlEntireDomain: true };
    for (const url of [
      'https://example.com/pricing',
      'https://sub.example.com/pricing',
      'https://other.example.com/pricing',
    ]) {
      expect(verdict('https://example.com', url, opts)).toBe('ALLOWED');
    }
    for (const path of ['/blog', '/about', '/contact']) {
      expect(verdict('https://example.com', `https://example.com${path}`, opts)).toBe('INCLUDE_PATTERN');
    }
  });

  it('matches the full URL with regexOnFullURL (item 26)', () => {
    const opts = {
      includePaths: ['^https://([a-z0-9-]+\\.)?example\\.com/pricing$'],
      regexOnFullURL: true,
      allowSubdomains: true,
    };
    expect(verdict('https://example.com', 'https://example.com/pricing/details', opts)).toBe('INCLUDE_PATTERN');
    expect(verdict('https://example.com', 'https://sub.example.com/pricing', opts)).toBe('ALLOWED');
  });

  it('matches patterns on a non-ASCII or escaped path as written and as read', () => {
    const seed = 'https://example.com/';
    // Links as pages write them: the URL parser percent-encodes `ü` and the space.
    const uber = 'https://example.com/de/über-uns';
    const notes = 'https://example.com/release%20notes';
    expect(verdict(seed, uber, { includePaths: ['^/de/über'] })).toBe('ALLOWED');
    expect(verdict(seed, uber, { includePaths: ['^/de/%C3%BCber'] })).toBe('ALLOWED');
    expect(verdict(seed, uber, { excludePaths: ['über'] })).toBe('EXCLUDE_PATTERN');
    expect(verdict(seed, notes, { excludePaths: ['release notes'] })).toBe('EXCLUDE_PATTERN');
    expect(verdict(seed, notes, { includePaths: ['^/release notes$'] })).toBe('ALLOWED');
    expect(verdict(seed, uber, { includePaths: ['^https://example\\.com/de/über'], regexOnFullURL: true })).toBe(
      'ALLOWED',
    );
    expect(verdict(seed, 'https://other.org/de/über', { allowExternalLinks: true, excludePaths: ['über'] })).toBe(
      'EXCLUDE_PATTERN',
    );
    // An internationalised host is matched in Unicode as well as in punycode.
    const idn = 'https://例え.jp/ニュース/1';
    expect(
      verdict('https://例え.jp/', idn, { includePaths: ['^https://例え\\.jp/ニュース/'], regexOnFullURL: true }),
    ).toBe('ALLOWED');
    expect(verdict('https://例え.jp/', idn, { includePaths: ['xn--r8jz45g\\.jp'], regexOnFullURL: true })).toBe(
      'ALLOWED',
    );
    // NFC and NFD spellings of a word are one word to a pattern, written either way.
    const nfd = 'https://example.com/menu/cafe%CC%81';
    const nfc = 'https://example.com/menu/caf%C3%A9';
    for (const url of [nfd, nfc]) {
      expect(verdict(seed, url, { excludePaths: ['café'] })).toBe('EXCLUDE_PATTERN');
      expect(verdict(seed, url, { excludePaths: ['café'.normalize('NFD')] })).toBe('EXCLUDE_PATTERN');
      expect(verdict(seed, url, { includePaths: ['^/menu/café$'] })).toBe('ALLOWED');
    }
    // An escape that is not UTF-8 is kept; the rest of the path is still read.
    expect(verdict(seed, 'https://example.com/a%FF/b%20c', { includePaths: ['^/a%FF/b c$'] })).toBe('ALLOWED');
    expect(verdict(seed, uber, { includePaths: ['^/en/'] })).toBe('INCLUDE_PATTERN');
  });

  it("follows the seed's redirect: into another directory of the site, or to another site", () => {
    const rules = createCrawlRules({ seedUrl: 'https://example.com/latest' });
    expect(rules.check('https://example.com/v2/guide')).toEqual({ allowed: false, reason: 'BACKWARD_CRAWLING' });
    rules.rebase('https://www.example.com/v2/');
    expect(rules.check('https://example.com/v2/guide')).toEqual({ allowed: true });
    expect(rules.check('https://example.com/latest/x')).toEqual({ allowed: true });
    expect(rules.check('https://example.com/v1/guide')).toEqual({ allowed: false, reason: 'BACKWARD_CRAWLING' });
    rules.rebase('https://other.org/docs/');
    expect(rules.check('https://other.org/docs/a')).toEqual({ allowed: true });
    expect(rules.check('https://other.org/v2/guide')).toEqual({ allowed: false, reason: 'BACKWARD_CRAWLING' });
    expect(rules.check('https://example.com/v2/guide')).toEqual({ allowed: false, reason: 'EXTERNAL_LINK' });
  });

  it('treats the seed scope as a directory (item 29)', () => {
    expect(inSeedScope('/docs/guide.md', '/docs/other')).toBe(true);
    expect(inSeedScope('/docs/', '/docs')).toBe(false);
    expect(inSeedScope('/docs/', '/docsearch/x')).toBe(false);
    expect(inSeedScope('/docs', '/docs')).toBe(true);
    expect(inSeedScope('/docs', '/docs/guide')).toBe(true);
    expect(inSeedScope('/docs', '/docsearch')).toBe(false);
    expect(inSeedScope('/', '/anything')).toBe(true);
  });
});

describe('helpers', () => {
  it('computes URL depth (item 28)', () => {
    expect(urlDepth('https://a.test/')).toBe(0);
    expect(urlDepth('https://a.test/pages')).toBe(1);
    expect(urlDepth('https://a.test/pages/articles')).toBe(2);
    expect(urlDepth('https://a.test/pages/index.html')).toBe(1);
  });
  it('recognises files (item 30)', () => {
    expect(isFileUrl('/test.png')).toBe(true);
    expect(isFileUrl('/script.js')).toBe(true);
    expect(isFileUrl('/style.css')).toBe(true);
    expect(isFileUrl('/page')).toBe(false);
    expect(isFileUrl('/directory/')).toBe(false);
  });
  it('reports the first invalid pattern', () => {
    expect(validateCrawlPatterns(['^/ok', '(bad'])).toMatchObject({ pattern: '(bad' });
    expect(validateCrawlPatterns(['^/ok'])).toBeUndefined();
  });

  it('runs lookahead and backreferences on RegExp only when they cannot backtrack for long', () => {
    // Before (re2js alone): every lookahead and backreference refused, though upstream takes them.
    expect(validateCrawlPatterns(['^/docs/(?!private)', '(?=a)', '(x)\\1', '(?<x>a)\\k<x>'])).toBeUndefined();
    const docs = createCrawlRules({ seedUrl: 'https://example.com/', includePaths: ['^/docs/(?!private)'] });
    expect(docs.check('https://example.com/docs/guide').allowed).toBe(true);
    expect(docs.check('https://example.com/docs/private/keys').allowed).toBe(false);
    const twice = createCrawlRules({ seedUrl: 'https://example.com/', includePaths: ['^/(?<w>[a-z])\\k<w>$'] });
    expect([twice.check('https://example.com/aa').allowed, twice.check('https://example.com/ab').allowed]).toEqual([
      true,
      false,
    ]);
    expect(validateCrawlPatterns(['(?!x)(a+)+$'])?.message).toMatch(
      /lookahead .*beside more repetitions.*excludePaths/,
    );
    expect(validateCrawlPatterns(['^(?!x)\\d*\\d*\\d*$'])?.message).toMatch(/at most two repetitions/);
    expect(validateCrawlPatterns(['(a)\\1(b+)+$'])?.message).toMatch(/backreference .*beside more repetitions/);
  });

  it('runs the rest of JavaScript syntax in linear time', () => {
    expect(
      validateCrawlPatterns(['(?<=/)a', '(?<!b)a', '\\/docs\\/', '(?<name>\\d+)', '\\p{Lu}', '[\\w-]+']),
    ).toBeUndefined();
    const rules = createCrawlRules({ seedUrl: 'https://example.com/', includePaths: ['(a+)+$', '(?<=/)b$'] });
    // `RegExp` backtracks 2^2000 ways on this path before it fails; RE2 answers at once.
    expect(rules.check(`https://example.com/${'a'.repeat(2000)}-c`)).toEqual({
      allowed: false,
      reason: 'INCLUDE_PATTERN',
    });
    expect(rules.check(`https://example.com/x/aaa`).allowed).toBe(true);
    expect(rules.check(`https://example.com/x/b`).allowed).toBe(true);
    expect(rules.check(`https://example.com/x/cb`).allowed).toBe(false);
  });
});
