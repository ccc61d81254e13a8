/**
 * A page that redirects to a scheme crawlkit does not fetch (ftp:, mailto:) is the site's doing: the function API and
 * `serve` answer `SCRAPE_UNSUPPORTED_REDIRECT` (500, as the other redirect failures), naming the page and where it
 * led, where they answered `SCRAPE_UNSUPPORTED_PROTOCOL` 400 as if the request were wrong (a56's Left). A request
 * URL of such a scheme stays the caller's fault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startServeStack, type ServeStack } from './helpers/serve.ts';

let stack: ServeStack;

beforeAll(async () => {
  stack = await startServeStack();
});

afterAll(async () => {
  await stack?.close();
});

const redirectTo = (target: string) => stack.page(`/hostile/redirect-to?url=${encodeURIComponent(target)}`);

describe('a redirect to a scheme crawlkit does not fetch', () => {
  it('is SCRAPE_UNSUPPORTED_REDIRECT through the function API, naming the page and the target', async () => {
    const page = redirectTo('ftp://127.0.0.1/file.txt');
    const result = await stack.ck.scrape({ url: page });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.code).toBe('SCRAPE_UNSUPPORTED_REDIRECT');
    expect(result.error).toContain(`The page ${page} redirected to ftp://127.0.0.1/file.txt`);
    expect(result.error).toContain('scheme ftp:');
  });

  it('answers 500 through serve, in the v2 shape', async () => {
    const response = await fetch(`${stack.server.url}/v2/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: redirectTo('mailto:someone@example.com') }),
    });
    const body = (await response.json()) as { success: boolean; code: string; error: string };
    expect(response.status).toBe(500);
    expect(body).toMatchObject({ success: false, code: 'SCRAPE_UNSUPPORTED_REDIRECT' });
    expect(body.error).toContain('redirected to mailto:someone@example.com');
  });

  it('leaves a request URL of such a scheme a 400', async () => {
    const response = await fetch(`${stack.server.url}/v2/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'ftp://127.0.0.1/file.txt' }),
    });
    expect(response.status).toBe(400);
  });
});
