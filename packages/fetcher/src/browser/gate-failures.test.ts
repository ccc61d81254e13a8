/**
 * The statuses proxy-chain answers the gate's plain requests with itself, said in words: a broken pipe (596) and a
 * reset through the user's proxy (595), which a fixture cannot make Chromium meet on demand (the reset without a proxy
 * is walked on real Chromium in test/browser-gateway-statuses.test.ts).
 */
import { describe, expect, it } from 'vitest';

import { gatewayFailure } from './gate-failures.js';

describe('gatewayFailure', () => {
  it('says a broken pipe, and through a proxy names the proxy without its credentials', () => {
    const url = 'http://127.0.0.1:9/page';
    expect(gatewayFailure(596, url, undefined, 10_000)).toMatchObject({
      code: 'SCRAPE_CONNECTION_ERROR',
      message: 'Connection to 127.0.0.1:9 closed while the request was being sent (EPIPE).',
      dropped: true,
    });
    const proxied = gatewayFailure(595, url, 'http://user:secret@127.0.0.1:8/', 10_000);
    expect(proxied.message).toBe('Connection through the proxy http://127.0.0.1:8 failed: reset (ECONNRESET).');
  });
});
