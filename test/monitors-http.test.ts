/**
 * `/v2/monitor` over raw HTTP: monitors belong to the API key that made them, a check is found only under its own
 * monitor, bad input gets the v2 error shape naming what to fix, and paths the clients do not use stay 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { call } from './helpers/raw-http.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const A = 'fc-monitor-key-a';
const B = 'fc-monitor-key-b';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

let stack: ServeStack;
let base: string;

beforeAll(async () => {
  stack = await startServeStack({ server: { apiKeys: [A, B] } });
  base = stack.server.url;
});

afterAll(async () => {
  await stack?.close();
});

const body = (name: string) => ({
  name,
  // January 1st only: nothing fires during the test.
  schedule: { cron: '0 0 1 1 *' },
  targets: [{ type: 'scrape', urls: [stack.page('/')] }],
});

describe('/v2/monitor over HTTP', () => {
  it("keeps each key's monitors to itself, and a check to its own monitor", async () => {
    const mine = await call(base, 'POST', '/v2/monitor', { body: body('a'), ...as(A) });
    expect(mine.status).toBe(200);
    const id = (mine.body.data as { id: string }).id;
    const other = await call(base, 'POST', '/v2/monitor', { body: body('b'), ...as(B) });
    const otherId = (other.body.data as { id: string }).id;

    const listed = await call(base, 'GET', '/v2/monitor', as(B));
    expect((listed.body.data as { id: string }[]).map((m) => m.id)).toEqual([otherId]);
    for (const [method, path] of [
      ['GET', `/v2/monitor/${id}`],
      ['PATCH', `/v2/monitor/${id}`],
      ['DELETE', `/v2/monitor/${id}`],
      ['POST', `/v2/monitor/${id}/run`],
      ['GET', `/v2/monitor/${id}/checks`],
    ] as const) {
      const answer = await call(base, method, path, {
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
        ...as(B),
      });
      expect({ status: answer.status, code: answer.body.code }, `${method} ${path}`).toEqual({
        status: 404,
        code: 'MONITOR_NOT_FOUND',
      });
    }

    const run = await call(base, 'POST', `/v2/monitor/${id}/run`, as(A));
    const checkId = (run.body.data as { id: string }).id;
    expect((await call(base, 'GET', `/v2/monitor/${id}/checks/${checkId}`, as(A))).status).toBe(200);
    const elsewhere = await call(base, 'GET', `/v2/monitor/${otherId}/checks/${checkId}`, as(B));
    expect({ status: elsewhere.status, code: elsewhere.body.code }).toEqual({
      status: 404,
      code: 'MONITOR_CHECK_NOT_FOUND',
    });
  });

  it('answers bad input with the v2 error shape, saying what to fix', async () => {
    const unknownKey = await call(base, 'POST', '/v2/monitor', { body: { ...body('x'), colour: 'red' }, ...as(A) });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(unknownKey.body.error).toContain('Unrecognized key in body');
    const text = await call(base, 'POST', '/v2/monitor', {
      body: { ...body('x'), schedule: { text: 'whenever' } },
      ...as(A),
    });
    expect(text.status).toBe(400);
    expect(text.body.error).toContain('`schedule.text` "whenever" is not a form crawlkit reads');
    expect(text.body.details).toContainEqual(expect.objectContaining({ path: ['schedule', 'text'] }));
    const limit = await call(base, 'GET', '/v2/monitor?limit=0', as(A));
    expect({ status: limit.status, code: limit.body.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(limit.body.details).toContainEqual(expect.objectContaining({ path: ['limit'] }));
    const status = await call(base, 'PATCH', `/v2/monitor/none`, { body: { status: 'sleeping' }, ...as(A) });
    expect(status.status).toBe(400);
    expect(status.body.details).toContainEqual(expect.objectContaining({ path: ['status'] })); // No model in this server: a goal is kept with a warning, `judgeEnabled: true` is refused.
    const judged = await call(base, 'POST', '/v2/monitor', {
      body: { ...body('x'), judgeEnabled: true, goal: 'g' },
      ...as(A),
    });
    expect({ status: judged.status, code: judged.body.code }).toEqual({ status: 400, code: 'LLM_NOT_CONFIGURED' });
    const goal = await call(base, 'POST', '/v2/monitor', { body: { ...body('x'), goal: 'price drops' }, ...as(A) });
    expect(goal.status).toBe(200);
    expect(goal.body).toMatchObject({ success: true, data: { goal: 'price drops' } });
    expect(goal.body.warning).toContain('the changes are not judged');
  });

  it('lets a browser PATCH a monitor (the CORS preflight allows it)', async () => {
    const preflight = await fetch(`${base}/v2/monitor/some-id`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('leaves the paths the clients do not use as 404s', async () => {
    const plural = await call(base, 'GET', '/v2/monitors', as(A));
    expect({ status: plural.status, code: plural.body.code }).toEqual({ status: 404, code: 'ENDPOINT_NOT_SUPPORTED' });
    const deeper = await call(base, 'GET', '/v2/monitor/x/checks/y/pages', as(A));
    expect({ status: deeper.status, code: deeper.body.code }).toEqual({ status: 404, code: 'ROUTE_NOT_FOUND' });
  });
});
