/**
 * Hostile v2 input for the fuzz tests: every body field, values that break parsers and limits, seed bodies per method,
 * and the check that an answer is the v2 error shape.
 */
import type { ErrorResponse } from 'crawlkit';
import fc from 'fast-check';

export type Method = 'scrape' | 'crawl' | 'batchScrape' | 'map';

/** Every field name of the v2 bodies, so mutations hit real options as well as unknown ones. */
const FIELDS = [
  'url',
  'urls',
  'formats',
  'onlyMainContent',
  'includeTags',
  'excludeTags',
  'maxAge',
  'minAge',
  'headers',
  'waitFor',
  'mobile',
  'skipTlsVerification',
  'timeout',
  'parsers',
  'actions',
  'location',
  'removeBase64Images',
  'blockAds',
  'proxy',
  'storeInCache',
  'zeroDataRetention',
  'limit',
  'includePaths',
  'excludePaths',
  'regexOnFullURL',
  'maxDiscoveryDepth',
  'sitemap',
  'ignoreQueryParameters',
  'crawlEntireDomain',
  'allowExternalLinks',
  'allowSubdomains',
  'delay',
  'maxConcurrency',
  'webhook',
  'scrapeOptions',
  'ignoreInvalidURLs',
  'search',
  'includeSubdomains',
  'prompt',
  'changeTrackingOptions',
  '__proto__',
  'constructor',
  'toString',
] as const;

export const nasty = fc.constantFrom<unknown>(
  -1,
  0,
  Number.MAX_SAFE_INTEGER,
  1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  '\u0000',
  '[',
  '(?<',
  '*',
  'x'.repeat(100_000),
  'javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/html,<h1>x</h1>',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:1/',
  'http://127.0.0.1:1/',
  'http://0x7f.1/',
  'http://user:pass@127.0.0.1:1/',
  null,
  [],
  {},
  [[[[[[[[[[]]]]]]]]]],
  { type: 'json' },
  { type: 'screenshot', fullPage: 'yes' },
  ['markdown', 'markdown'],
  ['rawHtml', { type: 'json', schema: 'not a schema' }],
  [{ type: 'wait' }, { type: 'click' }],
  { country: 'ZZ' },
  { url: 'not a url', events: ['nope'] },
);

export function seed(method: Method, url: string): Record<string, unknown> {
  switch (method) {
    case 'scrape':
      return { url: `${url}/articles/first-post.html`, formats: ['markdown'] };
    case 'crawl':
      return { url: `${url}/docs/`, limit: 2 };
    case 'batchScrape':
      return { urls: [`${url}/articles/first-post.html`, `${url}/listing.html`] };
    case 'map':
      return { url, limit: 5 };
  }
}

type Mutation = { kind: 'set'; field: string; value: unknown } | { kind: 'delete'; field: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    field: fc.constantFrom(...FIELDS),
    value: fc.oneof(nasty, fc.jsonValue({ maxDepth: 3 })),
  }),
  fc.record({ kind: fc.constant('delete' as const), field: fc.constantFrom(...FIELDS) }),
);

/** A whole body that is random, or a valid seed body with a few fields broken. */
export const bodyCase = fc.record({
  method: fc.constantFrom<Method>('scrape', 'crawl', 'batchScrape', 'map'),
  replaceWhole: fc.option(fc.oneof(nasty, fc.jsonValue({ maxDepth: 3 })), { freq: 6 }),
  mutations: fc.array(mutation, { minLength: 0, maxLength: 4 }),
});

export function build(c: { method: Method; replaceWhole: unknown; mutations: Mutation[] }, base: string): unknown {
  if (c.replaceWhole !== null) return c.replaceWhole;
  const body: Record<string, unknown> = seed(c.method, base);
  for (const m of c.mutations) {
    if (m.kind === 'delete') delete body[m.field];
    else Object.defineProperty(body, m.field, { value: m.value, enumerable: true, writable: true, configurable: true });
  }
  return body;
}

export function isErrorShape(value: unknown): value is ErrorResponse {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.success === false && typeof v.code === 'string' && typeof v.error === 'string' && v.error.length > 0;
}
