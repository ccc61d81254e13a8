/**
 * The probes an operator points a load balancer, Docker's HEALTHCHECK or Kubernetes at: `GET /health` (the process
 * answers) and `GET /ready` (the store answers and the server is not stopping), without a key, on a real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { call } from './helpers/raw-http.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-health-0123456789';

let stack: ServeStack;

beforeAll(async () => {
  stack = await startServeStack({ server: { apiKeys: [KEY] } });
});

afterAll(async () => {
  await stack?.close();
});

describe('health and readiness', () => {
  it('answer a probe without a key, and say nothing more; every other route still wants one', async () => {
    const health = await call(stack.server.url, 'GET', '/health');
    expect(health).toMatchObject({ status: 200, body: { success: true, status: 'ok' } });
    const ready = await call(stack.server.url, 'GET', '/ready');
    expect(ready).toMatchObject({ status: 200, body: { success: true, status: 'ready' } });
    expect(ready.body).toEqual({ success: true, status: 'ready' });
    const head = await fetch(`${stack.server.url}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await call(stack.server.url, 'GET', '/v2/team/queue-status')).status).toBe(401);
    expect((await call(stack.server.url, 'GET', '/health/x')).status).toBe(401);
  });

  it('/ready answers 503 with what is wrong once the engine does not answer (closed); /health still 200', async () => {
    await stack.ck.close();
    const ready = await call(stack.server.url, 'GET', '/ready');
    expect(ready).toMatchObject({
      status: 503,
      body: { success: false, status: 'unavailable', code: 'ENGINE_CLOSED' },
    });
    expect(ready.body.error).toMatch(/^Not ready: /);
    expect((await call(stack.server.url, 'GET', '/health')).status).toBe(200);
  });
});
