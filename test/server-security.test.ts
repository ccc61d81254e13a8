/**
 * Findings of issue 38 that live in `@crawlkit/server`, each reproduced as it was found:
 * - #4 API keys are tenants: key B cannot list, read or cancel key A's crawl, unless the operator says keys share;
 * - #9 a client trickling a body cannot hold a socket: unauthenticated requests are answered and closed at once,
 *   bodies have a time limit, and so do headers (the same `bodyTimeoutMs`);
 * - #11 JSON nested 10,000 deep is a 400 (it was a 500), and `Authorization: <any word> <key>` is refused.
 */
import { connect, type Socket } from 'node:net';

import { startServer, type CrawlkitServer } from '@crawlkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY_A = 'fc-tenant-a-0123456789';
const KEY_B = 'fc-tenant-b-0123456789';

let stack: ServeStack;
let base: string;

beforeAll(async () => {
  stack = await startServeStack({ server: { apiKeys: [KEY_A, KEY_B], bodyTimeoutMs: 800 } });
  base = stack.server.url;
});

afterAll(async () => {
  await stack?.close();
});

async function api(
  url: string,
  method: string,
  key: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('#4 API keys are tenants', () => {
  it("key B can neither list, read, nor cancel key A's crawl; key A can", async () => {
    const started = await api(`${base}/v2/crawl`, 'POST', KEY_A, { url: stack.page('/held/tenant-1'), limit: 2 });
    const id = started.body.id as string;
    expect(started.status).toBe(200);

    const listedByB = await api(`${base}/v2/crawl/active`, 'GET', KEY_B);
    expect((listedByB.body.crawls as { id: string }[]).map((c) => c.id)).not.toContain(id);
    for (const [method, path] of [
      ['GET', `/v2/crawl/${id}`],
      ['GET', `/v2/crawl/${id}/errors`],
      ['DELETE', `/v2/crawl/${id}`],
      ['GET', `/v1/crawl/${id}`],
      ['GET', `/v2/batch/scrape/${id}`],
    ] as const) {
      expect(await api(`${base}${path}`, method, KEY_B), `${method} ${path}`).toMatchObject({
        status: 404,
        body: { code: 'JOB_NOT_FOUND' },
      });
    }
    const listedByA = await api(`${base}/v2/crawl/active`, 'GET', KEY_A);
    expect((listedByA.body.crawls as { id: string }[]).map((c) => c.id)).toContain(id);
    expect((await api(`${base}/v2/crawl/${id}`, 'GET', KEY_A)).body.status).toBe('scraping');
    expect((await api(`${base}/v2/crawl/${id}`, 'DELETE', KEY_A)).body).toEqual({ status: 'cancelled' });
  });

  it("key B cannot read key A's stored scrape", async () => {
    const scraped = await api(`${base}/v2/scrape`, 'POST', KEY_A, { url: stack.page('/docs/getting-started.html') });
    const id = (scraped.body.data as { metadata: { scrapeId: string } }).metadata.scrapeId;
    expect((await api(`${base}/v2/scrape/${id}`, 'GET', KEY_B)).status).toBe(404);
    expect((await api(`${base}/v2/scrape/${id}`, 'GET', KEY_A)).status).toBe(200);
  });

  it('keys share their jobs when the operator says so', async () => {
    const shared: CrawlkitServer = await startServer({
      crawlkit: stack.ck,
      port: 0,
      apiKeys: [KEY_A, KEY_B],
      keysShareJobs: true,
    });
    try {
      const started = await api(`${shared.url}/v2/batch/scrape`, 'POST', KEY_A, { urls: [stack.page('/')] });
      const read = await api(`${shared.url}/v2/batch/scrape/${started.body.id as string}`, 'GET', KEY_B);
      expect(read.status).toBe(200);
    } finally {
      await shared.close();
    }
  });
});

/**
 * Opens a raw connection, sends `head`, then `drip()` every 100 ms (one body byte by default); resolves what happened.
 */
function trickle(
  url: string,
  head: string,
  drip: () => string = () => 'x',
): Promise<{ response: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    // The drip starts once the head is written: started beside `connect`, a connection slower than 100 ms (under
    // load) sent a drip before the head, and the server answered 400 HPE_INVALID_METHOD.
    const socket: Socket = connect(Number(port), hostname, () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(drip());
      }, 100);
    });
    let response = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ response, closedAfterMs: Date.now() - started });
    });
    // A socket still open after 10 s is what the finding was: the test then fails on the time.
    setTimeout(() => socket.destroy(), 10_000);
  });
}

const headOf = (auth: string) =>
  `POST /v2/scrape HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${auth}` +
  `Content-Length: 100000\r\n\r\n{"url":"`;

describe('#9 slow bodies hold no socket', () => {
  it('answers 401 and closes at once without reading the body of an unauthenticated request', async () => {
    const outcome = await trickle(base, headOf(''));
    expect(outcome.response).toMatch(/^HTTP\/1\.1 401/);
    expect(outcome.closedAfterMs).toBeLessThan(2_000);
  });

  it('answers 408 and closes once an authenticated body takes longer than bodyTimeoutMs', async () => {
    const outcome = await trickle(base, headOf(`Authorization: Bearer ${KEY_A}\r\n`));
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408/);
    expect(outcome.response).toContain('REQUEST_TIMEOUT');
    // What to fix, by the setting's name (was "… did not arrive within 800 ms." alone).
    expect(outcome.response).toContain("did not arrive within 800 ms (the server's --body-timeout, bodyTimeoutMs)");
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(700);
    expect(outcome.closedAfterMs).toBeLessThan(4_000);
  });
});

describe('slow headers hold no socket either', () => {
  it('answers 408 and closes once the headers take longer than bodyTimeoutMs (a slowloris)', async () => {
    let line = 0;
    // One header line every 100 ms, never the blank line that ends them: Node's defaults held this 60-90 s.
    const outcome = await trickle(
      base,
      'GET /v2/crawl/active HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      () => `X-Slow-${line++}: 1\r\n`,
    );
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408/);
    expect(outcome.response).toContain('did not arrive within 800 ms');
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(700);
    expect(outcome.closedAfterMs).toBeLessThan(4_000);
  });
});

describe('#11 bodies and keys', () => {
  it('answers JSON nested 10,000 deep with 400, not 500', async () => {
    for (const body of [
      `{"url":"http://a.example","formats":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    ]) {
      const response = await fetch(`${base}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain('nests deeper than');
    }
  });

  it('takes the key only as `Bearer <key>`', async () => {
    for (const header of [`Token ${KEY_A}`, `Basic ${KEY_A}`, `anything ${KEY_A}`, `Bearer ${KEY_A} extra`]) {
      const response = await fetch(`${base}/v2/crawl/active`, { headers: { authorization: header } });
      expect(response.status, header).toBe(401);
    }
    for (const header of [`Bearer ${KEY_A}`, `bearer ${KEY_A}`, `  Bearer   ${KEY_A}  `]) {
      const response = await fetch(`${base}/v2/crawl/active`, { headers: { authorization: header } });
      expect(response.status, header).toBe(200);
    }
  });
});
