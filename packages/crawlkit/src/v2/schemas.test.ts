import { describe, expect, it } from 'vitest';

import { mapRequestSchema } from './jobs.js';
import { parseBody } from './parse.js';
import { rewriteIframeSelector, scrapeRequestSchema } from './scrape-options.js';

const scrape = (body: Record<string, unknown>) => parseBody(scrapeRequestSchema, body);

function ok(body: Record<string, unknown>) {
  const result = scrape(body);
  if (!result.ok) throw new Error(`expected success, got ${result.error.error}`);
  return result.value;
}

function fail(body: Record<string, unknown>) {
  const result = scrape(body);
  if (result.ok) throw new Error('expected a validation error');
  expect(result.error.success).toBe(false);
  expect(result.error.code).toBe('BAD_REQUEST');
  return result.error;
}

describe('scrape request defaults (reference §21 item 1)', () => {
  it('fills every default', () => {
    const value = ok({ url: 'https://example.com' });
    expect(value).toMatchObject({
      url: 'https://example.com',
      formats: [{ type: 'markdown' }],
      origin: 'api',
      onlyMainContent: true,
      waitFor: 0,
      mobile: false,
      removeBase64Images: true,
      fastMode: false,
      blockAds: true,
      proxy: 'auto',
      storeInCache: true,
      skipTlsVerification: true,
      integration: null,
      maxAge: 172_800_000,
      parsers: [{ type: 'pdf' }],
      zeroDataRetention: false,
    });
    expect(value.timeout).toBeUndefined();
  });
});

describe('skipTlsVerification (item 2)', () => {
  it('keeps an explicit false', () => {
    expect(ok({ url: 'https://example.com', skipTlsVerification: false }).skipTlsVerification).toBe(false);
  });
  it('defaults to false with custom headers or actions', () => {
    expect(ok({ url: 'https://example.com', headers: { 'x-test': 'true' } }).skipTlsVerification).toBe(false);
    expect(ok({ url: 'https://example.com', actions: [{ type: 'wait', milliseconds: 10 }] }).skipTlsVerification).toBe(
      false,
    );
  });
});

describe('formats (items 3–6)', () => {
  it('normalises strings to objects', () => {
    expect(ok({ url: 'https://example.com', formats: ['markdown', 'html'] }).formats).toEqual([
      { type: 'markdown' },
      { type: 'html' },
    ]);
  });
  it('rejects an unknown format with a message listing the valid ones', () => {
    const error = fail({ url: 'https://example.com', formats: [{ type: 'invalid-format' }] });
    expect(error.error).toContain('markdown');
  });
  it("tells v1's format names their v2 form (screenshot@fullPage, extract, content)", () => {
    // Before: the list of v2's formats, which has no full-page screenshot in it.
    expect(fail({ url: 'https://example.com', formats: ['screenshot@fullPage'] }).error).toBe(
      "Bad Request: formats[0].type: Unknown format: 'screenshot@fullPage' is a v1 format; in v2 write " +
        "{ type: 'screenshot', fullPage: true }.",
    );
    expect(fail({ url: 'https://example.com', formats: ['extract'] }).error).toContain("in v2 write { type: 'json'");
    expect(fail({ url: 'https://example.com', formats: ['content'] }).error).toContain("in v2 write 'markdown'");
  });
  it('lists every format with options in the unknown format message, read off the formats themselves', () => {
    // Before: a hand-written list that lacked deterministicJson.
    const error = fail({ url: 'https://example.com', formats: ['markdwon'] }).error;
    expect(error).toContain('Unknown format. Use one of: markdown, html,');
    expect(error).toContain(
      '(attributes, screenshot, json, changeTracking, highlights, question, query and deterministicJson also take an ' +
        'object with options)',
    );
  });
  it('requires markdown with changeTracking', () => {
    expect(fail({ url: 'https://example.com', formats: [{ type: 'changeTracking' }] }).error).toBe(
      'The changeTracking format requires the markdown format to be specified as well',
    );
    const value = ok({ url: 'https://example.com', formats: ['markdown', { type: 'changeTracking', tag: null }] });
    expect(value.formats[1]).toEqual({ type: 'changeTracking', modes: [], tag: null });
  });
  it('allows only one screenshot format', () => {
    expect(
      fail({ url: 'https://example.com', formats: ['screenshot', { type: 'screenshot', fullPage: true }] }).error,
    ).toBe('You may only specify one screenshot format');
  });
  it('validates screenshot options', () => {
    const value = ok({
      url: 'https://example.com',
      formats: [{ type: 'screenshot', fullPage: true, quality: 90, viewport: { width: 1920, height: 1080 } }],
    });
    expect(value.formats[0]).toEqual({
      type: 'screenshot',
      fullPage: true,
      quality: 90,
      viewport: { width: 1920, height: 1080 },
    });
    for (const viewport of [
      { width: 10_000, height: 1080 },
      { width: -100, height: 0 },
      { width: 100.5, height: 100 },
    ]) {
      fail({ url: 'https://example.com', formats: [{ type: 'screenshot', viewport }] });
    }
  });
  it('rejects unknown keys of format objects', () => {
    fail({ url: 'https://example.com', formats: [{ type: 'markdown', extra: true }] });
  });
  it('refuses a schema-less dictionary json schema', () => {
    const error = fail({
      url: 'https://example.com',
      formats: [{ type: 'json', schema: { type: 'object', additionalProperties: true } }],
    });
    expect(error.error).toContain('OpenAI');
    expect(error.error).toContain('schema-less dictionary');
  });
  it("refuses a schema of `$schema` alone, firecrawl-js's conversion of a zod 4 schema", () => {
    const empty = { $schema: 'http://json-schema.org/draft-07/schema#' };
    for (const format of [
      { type: 'json', schema: empty, prompt: 'the product' },
      { type: 'changeTracking', modes: ['json'], schema: empty },
    ]) {
      const error = fail({ url: 'https://example.com', formats: ['markdown', format] });
      expect(error.error).toContain(`The ${format.type} format schema has nothing but \`$schema\``);
      expect(error.error).toContain('z.toJSONSchema(MySchema)');
    }
    ok({ url: 'https://example.com', formats: [{ type: 'json', schema: { ...empty, type: 'object' } }] });
    ok({ url: 'https://example.com', formats: [{ type: 'json', schema: {}, prompt: 'anything' }] });
  });
});

describe('url (item 7)', () => {
  it('rejects bad or missing URLs', () => {
    fail({ url: 'not-a-url' });
    fail({});
    expect(fail({ url: 'file:///etc/passwd' }).error).toBe('URL uses unsupported protocol');
    expect(fail({ url: 'javascript:alert(1)' }).error).toBe('URL uses unsupported protocol');
    expect(fail({ url: 'ftp://example.com/file' }).error).toBe('URL uses unsupported protocol');
    expect(fail({ url: 'http://http://example.com' }).error).toBe('Invalid URL');
  });
  it('prefixes http:// when the scheme is missing', () => {
    expect(ok({ url: 'example.com' }).url).toBe('http://example.com');
  });
  it('accepts localhost and IP addresses, which local test harnesses scrape', () => {
    expect(ok({ url: 'http://127.0.0.1:8080/a' }).url).toBe('http://127.0.0.1:8080/a');
    expect(ok({ url: 'localhost:3000' }).url).toBe('http://localhost:3000');
    expect(ok({ url: 'http://[::1]:3000/' }).url).toBe('http://[::1]:3000/');
  });
});

describe('waitFor and timeout (item 8)', () => {
  it('tells a waitFor given a selector how v2 waits for an element', () => {
    // Before: 'waitFor: Invalid input: expected number, received string'.
    expect(fail({ url: 'https://example.com', waitFor: '#app .loaded' }).error).toBe(
      'Bad Request: waitFor: a time in milliseconds, not a selector: to wait for an element, add the action ' +
        "{ type: 'wait', selector: '…' }",
    );
    expect(fail({ url: 'https://example.com', waitFor: true }).error).toContain('expected number');
    // a number written as a string is no selector
    expect(fail({ url: 'https://example.com', waitFor: '2000' }).error).toContain('expected number');
  });
  it('rejects waitFor above half the timeout at the waitFor path', () => {
    const error = fail({ url: 'https://example.com', timeout: 1000, waitFor: 600 });
    expect(error.error).toBe('waitFor must not exceed half of timeout');
    expect(error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: ['waitFor'], message: error.error })]),
    );
    ok({ url: 'https://example.com', timeout: 1000, waitFor: 400 });
    for (const waitFor of [8000, 15_000, 20_000]) fail({ url: 'https://example.com', timeout: 15_000, waitFor });
  });
});

describe('location (item 10)', () => {
  it('lower-cases the country and defaults it', () => {
    expect(ok({ url: 'https://example.com', location: { country: 'US', languages: ['en'] } }).location).toEqual({
      country: 'us',
      languages: ['en'],
    });
    expect(ok({ url: 'https://example.com', location: {} }).location).toEqual({ country: 'us-generic' });
  });
  it('takes languages as locale tags (en_US as en-US) and refuses what no browser can set, naming it', () => {
    const languages = (list: string[]) => ({ url: 'https://example.com', location: { languages: list } });
    expect(ok(languages(['en-US', 'fr', 'de-CH', 'en_GB'])).location?.languages).toEqual([
      'en-US',
      'fr',
      'de-CH',
      'en-GB',
    ]);
    for (const bad of ['-1', '1.5', 'english please']) {
      const error = fail(languages(['en', bad]));
      expect(JSON.stringify(error.details)).toContain(
        `location.languages[1] is a language tag such as \\"en\\", \\"en-US\\" or \\"fr-CH\\"; got \\"${bad}\\"`,
      );
    }
  });
  it('rejects an unknown country', () => {
    expect(fail({ url: 'https://example.com', location: { country: 'INVALID' } }).error).toContain(
      'Invalid country code',
    );
  });
});

describe('actions (item 11)', () => {
  it('accepts the common actions with their defaults', () => {
    const value = ok({
      url: 'https://example.com',
      actions: [{ type: 'click', selector: '#a' }, { type: 'wait', milliseconds: 100 }, { type: 'scroll' }],
    });
    expect(value.actions).toEqual([
      { type: 'click', selector: '#a', all: false },
      { type: 'wait', milliseconds: 100 },
      { type: 'scroll', direction: 'down' },
    ]);
  });
  it('enforces the wait and count rules', () => {
    expect(
      fail({ url: 'https://example.com', actions: [{ type: 'wait', milliseconds: 10, selector: '#a' }] }).error,
    ).toBe("Either 'milliseconds' or 'selector' must be provided, but not both.");
    const many = Array.from({ length: 51 }, () => ({ type: 'scroll' }));
    expect(fail({ url: 'https://example.com', actions: many }).error).toBe('Number of actions cannot exceed 50');
    const waits = Array.from({ length: 100 }, () => ({ type: 'wait', milliseconds: 1000 }));
    expect(fail({ url: 'https://example.com', actions: waits }).error).toContain('Total wait time');
  });
});

describe('parsers (item 12)', () => {
  it('accepts pdf with maxPages in range and rejects the rest', () => {
    expect(ok({ url: 'https://example.com', parsers: [{ type: 'pdf', maxPages: 100 }] }).parsers).toEqual([
      { type: 'pdf', maxPages: 100 },
    ]);
    expect(ok({ url: 'https://example.com', parsers: [] }).parsers).toEqual([]);
    for (const parsers of [
      ['invalid-parser'],
      'pdf',
      [{ pdf: true }],
      [{ type: 'pdf', maxPages: -1 }],
      [{ type: 'pdf', maxPages: 20_000 }],
      ['pdf:fast'],
      [{ type: 'pdf', mode: 'sometimes' }],
      [{ type: 'image', maxPages: 1 }],
    ]) {
      fail({ url: 'https://example.com', parsers });
    }
  });

  it('accepts the pdf modes and the image parser, as a string or an object', () => {
    expect(ok({ url: 'https://example.com', parsers: ['image', { type: 'pdf', mode: 'ocr' }] }).parsers).toEqual([
      { type: 'image' },
      { type: 'pdf', mode: 'ocr' },
    ]);
    expect(ok({ url: 'https://example.com', parsers: [{ type: 'image' }] }).parsers).toEqual([{ type: 'image' }]);
  });
});

describe('integration, changeTracking tag and cache ages (items 13–14)', () => {
  it('takes any integration name, as upstream keeps adding them (firecrawl-cli sends cli)', () => {
    expect(ok({ url: 'https://example.com', integration: 'dify' }).integration).toBe('dify');
    expect(ok({ url: 'https://example.com', integration: '_custom' }).integration).toBe('_custom');
    for (const name of ['cli', 'hermes', 'gstack', 'prometheus', 'something-new']) {
      expect(ok({ url: 'https://example.com', integration: name }).integration).toBe(name);
    }
    expect(ok({ url: 'https://example.com', integration: '' }).integration).toBeNull();
    fail({ url: 'https://example.com', integration: 42 });
  });
  it('checks minAge and maxAge', () => {
    ok({ url: 'https://example.com', minAge: 1000, maxAge: 5000 });
    fail({ url: 'https://example.com', minAge: -1 });
    fail({ url: 'https://example.com', maxAge: -1 });
  });
});

describe('unknown keys (reference §1)', () => {
  it('names the unknown key', () => {
    const error = fail({ url: 'https://example.com', formatz: ['markdown'] });
    expect(error.error).toContain('Unrecognized key in body');
    expect(error.error).toContain('formatz');
  });
  it('answers a non-object body with the error shape', () => {
    const result = parseBody(scrapeRequestSchema, 'https://example.com');
    expect(result.ok).toBe(false);
  });
});

describe('iframe selector rewrite (item 15)', () => {
  it('rewrites standalone iframe tokens only', () => {
    expect(
      ok({ url: 'https://example.com', includeTags: ['iframe', 'iframe.video', 'div.content'] }).includeTags,
    ).toEqual(['div[data-original-tag="iframe"]', 'div[data-original-tag="iframe"].video', 'div.content']);
    expect(rewriteIframeSelector('div iframe')).toBe('div div[data-original-tag="iframe"]');
    expect(rewriteIframeSelector('iframe, iframe.video')).toBe(
      'div[data-original-tag="iframe"], div[data-original-tag="iframe"].video',
    );
    expect(rewriteIframeSelector('iframe-wrapper')).toBe('iframe-wrapper');
    expect(rewriteIframeSelector('my-iframe')).toBe('my-iframe');
    expect(rewriteIframeSelector('div.iframe-container')).toBe('div.iframe-container');
    expect(ok({ url: 'https://example.com', excludeTags: [] }).excludeTags).toEqual([]);
    expect(ok({ url: 'https://example.com' }).includeTags).toBeUndefined();
  });
});

describe('2026 fields of the v2 schema', () => {
  it('accepts every format of the 2026 SDK', () => {
    const value = ok({
      url: 'https://example.com',
      formats: [
        'markdown',
        'product',
        'menu',
        'audio',
        'video',
        { type: 'question', question: 'What does it cost?' },
        { type: 'highlights', query: 'price' },
        { type: 'query', prompt: 'What does it cost?' },
        { type: 'json', prompt: 'x', checkPromptInjection: true },
      ],
    });
    expect(value.formats).toContainEqual({ type: 'query', prompt: 'What does it cost?', mode: 'freeform' });
    expect(ok({ url: 'https://example.com', formats: ['rawBase64'] }).formats).toEqual([{ type: 'rawBase64' }]);
    fail({ url: 'https://example.com', formats: [{ type: 'highlights' }] });
    fail({ url: 'https://example.com', formats: ['question'] });
  });

  it('keeps the rules of the 2026 formats', () => {
    expect(fail({ url: 'https://example.com', formats: ['rawBase64', 'markdown'] }).error).toBe(
      'The rawBase64 format cannot be combined with other formats',
    );
    expect(fail({ url: 'https://example.com', formats: [{ type: 'json' }, { type: 'deterministicJson' }] }).error).toBe(
      'Cannot specify both json and deterministicJson formats',
    );
  });

  it('accepts the pdf parser options and the image parser', () => {
    const value = ok({
      url: 'https://example.com',
      parsers: [
        'image',
        { type: 'pdf', mode: 'fast', maxPages: 3, pageMarkdown: true, blocks: false, pageMarkers: true },
      ],
    });
    expect(value.parsers).toEqual([
      { type: 'image' },
      { type: 'pdf', mode: 'fast', maxPages: 3, pages: true, blocks: false, pageMarkers: true },
    ]);
    fail({ url: 'https://example.com', parsers: [{ type: 'pdf', mode: 'turbo' }] });
    fail({ url: 'https://example.com', parsers: ['invalid-parser'] });
  });

  it('names the parsers and their object form for an unknown one, and where a mode in the name goes', () => {
    // Before: "parsers[0]: Invalid input: expected object, received string" (docs/qa-researcher-day.md).
    const names =
      "Unknown parser. Use 'pdf' or 'image', or an object: { type: 'pdf', maxPages?, mode?: 'fast' | 'auto' | " +
      "'ocr', pages?, blocks?, pageMarkers? } or { type: 'image' }.";
    expect(fail({ url: 'https://example.com', parsers: ['foo'] }).error).toBe(`Bad Request: parsers[0].type: ${names}`);
    expect(fail({ url: 'https://example.com', parsers: [{ pdf: true }] }).error).toContain(names);
    expect(fail({ url: 'https://example.com', parsers: ['pdf:fast'] }).error).toBe(
      "Bad Request: parsers[0].type: Unknown parser 'pdf:fast': write { type: 'pdf', mode: 'fast' }.",
    );
  });

  it('accepts the 2026 scrape options', () => {
    ok({
      url: 'https://example.com',
      redactPII: { mode: 'fast', entities: ['EMAIL'], replaceStyle: 'mask' },
      profile: { name: 'shop', saveChanges: false },
      threatProtection: { mode: 'manual-only', blacklist: ['*.bad.example'], blockedTlds: ['zip'], whitelist: [] },
      auditMetadata: { username: 'ana' },
      domainTools: true,
      toolDetail: 'compact',
      __experimental_omce: true,
    });
    expect(parseBody(mapRequestSchema, { url: 'https://example.com', threatProtection: { mode: 'off' } }).ok).toBe(
      true,
    );
  });

  it('turns onlyCleanContent into the whole page without its furniture', () => {
    const value = ok({ url: 'https://example.com', onlyCleanContent: true, excludeTags: ['.promo'] });
    expect(value.onlyMainContent).toBe(false);
    expect(value.excludeTags?.[0]).toBe('.promo');
    expect(value.excludeTags?.[1]).toContain('nav');
  });
});
