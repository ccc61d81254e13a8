/**
 * A webhook URL's credentials in what `crawlkit serve` shows back (security review, second day, qa52b): a schedule's
 * and a monitor's webhook headers were shown `[redacted]`, but a password in the webhook's URL
 * (`http://user:pass@host/`) was echoed as given by `POST` and `GET /v2/schedule` and `/v2/monitor`. Now the URL is
 * shown without its user name and password, like the headers' values; the deliveries still carry them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { call } from './helpers/raw-http.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const WEBHOOK = {
  url: 'http://hook-user:hook-pass-0123@127.0.0.1:9/hook?run=1',
  headers: { Authorization: 'Bearer hook-header-0123' },
};

let stack: ServeStack;

beforeAll(async () => {
  stack = await startServeStack();
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

/** Every secret of `WEBHOOK` that `value` shows. */
function shownSecrets(value: unknown): string[] {
  const text = JSON.stringify(value);
  return ['hook-user', 'hook-pass-0123', 'hook-header-0123'].filter((secret) => text.includes(secret));
}

describe("a webhook URL's user name and password", () => {
  it('are not shown by the schedule routes', async () => {
    const created = await call(stack.server.url, 'POST', '/v2/schedule', {
      body: { every: '1h', targets: [{ type: 'scrape', url: stack.page('/') }], webhook: WEBHOOK },
    });
    expect(created.status).toBe(200);
    const data = created.body.data as { id: string; webhook: { url: string } };
    // Before: 'http://hook-user:hook-pass-0123@127.0.0.1:9/hook?run=1', with the header's value [redacted].
    expect(data.webhook.url).toBe('http://127.0.0.1:9/hook?run=1');
    expect(shownSecrets(created.body)).toEqual([]);
    const listed = await call(stack.server.url, 'GET', '/v2/schedule');
    expect(listed.status).toBe(200);
    expect(shownSecrets(listed.body)).toEqual([]);
    await call(stack.server.url, 'DELETE', `/v2/schedule/${data.id}`);
  });

  it('are not shown by the monitor routes', async () => {
    const created = await call(stack.server.url, 'POST', '/v2/monitor', {
      body: {
        name: 'credentials',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'scrape', urls: [stack.page('/')] }],
        webhook: WEBHOOK,
      },
    });
    expect(created.status).toBe(200);
    const data = created.body.data as { id: string; webhook: { url: string } };
    expect(data.webhook.url).toBe('http://127.0.0.1:9/hook?run=1');
    expect(shownSecrets(created.body)).toEqual([]);
    const read = await call(stack.server.url, 'GET', `/v2/monitor/${data.id}`);
    expect(read.status).toBe(200);
    expect(shownSecrets(read.body)).toEqual([]);
  });
});
