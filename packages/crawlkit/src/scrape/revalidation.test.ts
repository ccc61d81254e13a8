import { describe, expect, it } from 'vitest';

import type { FetchedPage } from './fetched-page.js';
import { afterNotModified, cachePolicyOf, conditionalHeaders } from './revalidation.js';

const url = 'https://example.com/a?x=1';

function page(headers: Record<string, string>, over: Partial<FetchedPage> = {}): FetchedPage {
  return { url, status: 200, contentType: 'text/html', headers, engine: 'http', proxyUsed: 'basic', ...over };
}

describe('revalidation rules', () => {
  it('keeps the validators of a page served over HTTP, and sends them', () => {
    const policy = cachePolicyOf(page({ etag: '"v1"', 'last-modified': 'Thu, 01 Jan 2026 00:00:00 GMT' }))!;
    expect(conditionalHeaders(policy, url)).toEqual({
      'if-none-match': '"v1"',
      'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT',
    });
    expect(conditionalHeaders(cachePolicyOf(page({ 'last-modified': 'Thu, 01 Jan 2026 00:00:00 GMT' }))!, url)).toEqual(
      { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' },
    );
  });

  it('keeps none without a validator, for no-store, for the browser, or for a non-200', () => {
    expect(cachePolicyOf(page({}))).toBeUndefined();
    expect(cachePolicyOf(page({ etag: '"v1"', 'cache-control': 'no-store' }))).toBeUndefined();
    expect(cachePolicyOf(page({ etag: '"v1"' }, { engine: 'browser' }))).toBeUndefined();
    expect(cachePolicyOf(page({ etag: '"v1"' }, { status: 203 }))).toBeUndefined();
    // A private response is fine for crawlkit's own cache.
    expect(cachePolicyOf(page({ etag: '"v1"', 'cache-control': 'private' }))).toBeDefined();
  });

  it('confirms the copy on a matching 304, not on one naming another strong ETag', () => {
    const policy = cachePolicyOf(page({ etag: '"v1"' }))!;
    const confirmed = afterNotModified(policy, url, { status: 304, headers: { etag: '"v1"', 'x-new': 'y' }, url });
    expect(confirmed.confirmed).toBe(true);
    expect(afterNotModified(policy, url, { status: 304, headers: { etag: '"v2"' }, url })).toEqual({
      confirmed: false,
    });
    // A 304 with no validator of its own answers the request sent: the copy stands, with its own validators.
    const bare = afterNotModified(policy, url, { status: 304, headers: {}, url: `${url}#part` });
    expect(bare).toEqual({ confirmed: true, policy });
    if (bare.confirmed) expect(conditionalHeaders(bare.policy, url)).toEqual({ 'if-none-match': '"v1"' });
    // The 304 of the page a redirect led to, to validators that are not its own.
    const elsewhere = { status: 304, headers: { etag: '"v1"' }, url: 'https://example.com/b' };
    expect(afterNotModified(policy, url, elsewhere)).toEqual({ confirmed: false });
  });
});
