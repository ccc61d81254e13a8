/**
 * A request header HTTP cannot carry (a line break in its value, a space in its name) is refused before any fetch,
 * with the v2 error shape and a message saying what is wrong and what to send: the same from the API, `serve` and the
 * command line, since the v2 schema of `headers` is their one home.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, runCli } from './cli-helpers.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const LINE_BREAK =
  "The header x-a's value holds a line break (\\n), and a header value is one line: send it without CR or LF " +
  '(join its lines with a space)';

let stack: ServeStack;
let cliDir: string;

beforeAll(async () => {
  ensureBuilt();
  stack = await startServeStack();
  cliDir = mkdtempSync(join(tmpdir(), 'ck-headers-'));
}, 180_000);

afterAll(async () => {
  await stack?.close();
  if (cliDir) rmSync(cliDir, { recursive: true, force: true });
});

/** A v2 body through `serve`: the HTTP status and the answer. */
async function serve(path: string, body: unknown): Promise<{ status: number; body: ErrorResponse }> {
  const response = await fetch(`${stack.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ErrorResponse };
}

describe('a header HTTP cannot carry', { timeout: 60_000 }, () => {
  it('a line break in a value: the same refusal from the API, serve and the CLI, naming the header', async () => {
    const url = stack.page('/products/widget.html');
    const headers = { 'x-a': 'b\nc' };
    const expected = { success: false, code: 'BAD_REQUEST', error: LINE_BREAK };

    expect(await stack.ck.scrape({ url, headers })).toMatchObject(expected);
    expect(await stack.ck.crawl({ url, scrapeOptions: { headers } })).toMatchObject(expected);
    expect(await stack.ck.batchScrape({ urls: [url], headers })).toMatchObject(expected);
    expect(await stack.ck.map({ url, headers })).toMatchObject(expected);
    const scraped = await serve('/v2/scrape', { url, headers });
    expect(scraped.status).toBe(400);
    expect(scraped.body).toMatchObject({ ...expected, details: [{ path: ['headers', 'x-a'] }] });
    expect((await serve('/v2/crawl', { url, scrapeOptions: { headers } })).body).toMatchObject(expected);

    const cli = await runCli(['scrape', url, '--header', 'x-a: b\nc', '--store', join(cliDir, 'store')], {
      cwd: cliDir,
    });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toBe(`crawlkit: --header: ${LINE_BREAK} (CLI_USAGE)\n`);
  });

  it("says what is wrong with a name, a carriage return, a control or a character past Latin-1; a webhook's too", async () => {
    const url = stack.page('/products/widget.html');
    const refusal = async (headers: Record<string, string>) =>
      ((await stack.ck.scrape({ url, headers })) as ErrorResponse).error;
    expect(await refusal({ 'x a': 'b' })).toBe(
      'The header name "x a" is not a valid HTTP header name: use letters, digits and ' +
        "!#$%&'*+-.^_`|~ only (no spaces, colons or line breaks)",
    );
    expect(await refusal({ 'x-a': 'b\r\nx-b: c' })).toContain("x-a's value holds a line break (\\r)");
    expect(await refusal({ 'x-a': 'b\0' })).toContain('holds a control character (U+0000), which HTTP cannot carry');
    expect(await refusal({ 'x-a': '日本' })).toContain('holds a character past Latin-1 (U+65E5)');
    const webhook = await stack.ck.crawl({ url, webhook: { url: 'http://127.0.0.1:1/hook', headers: { k: 'a\nb' } } });
    expect(webhook).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((webhook as ErrorResponse).error).toContain("The webhook header k's value holds a line break");
  });

  it("a header the HTTP client writes itself is refused naming it, a page's and a webhook's", async () => {
    const url = stack.page('/products/widget.html');
    for (const name of ['Content-Length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']) {
      const value = name === 'Content-Length' ? '5' : name === 'expect' ? '100-continue' : 'x';
      const message = `the HTTP client writes it for each request (it frames the body and the connection), so leave it out`;
      // Before: the page failed SCRAPE_INVALID_REQUEST 'invalid transfer-encoding header' (Content-Length was sent).
      expect(await stack.ck.scrape({ url, headers: { [name]: value } })).toMatchObject({
        success: false,
        code: 'BAD_REQUEST',
        error: `The header ${name} cannot be set: ${message}`,
      });
      // Before: accepted, then every event of the job failed at its POST, retried for minutes and given up.
      const hooked = await serve('/v2/batch/scrape', {
        urls: [url],
        webhook: { url: 'http://127.0.0.1:1/hook', headers: { [name]: value } },
      });
      expect(hooked.status).toBe(400);
      expect(hooked.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(JSON.stringify(hooked.body)).toContain(`The webhook header ${name} cannot be set: ${message}`);
    }
  });

  it('a value HTTP carries is fetched: a tab, Latin-1, spaces around it', async () => {
    const url = stack.page('/products/widget.html');
    const scraped = await stack.ck.scrape({ url, headers: { 'x-a': ' b\tc é ' }, maxAge: 0 });
    expect(scraped).toMatchObject({ success: true, data: { metadata: { statusCode: 200 } } });
  });
});
