/**
 * The access line of a 5xx answer ends with its v2 error code, taken from where the answer is built (`sendError`):
 * before, the line parsed the body back out of the bytes sent, and a body over 64 KiB (an error with long details)
 * was logged `UNKNOWN_ERROR`. A body a route wrote by hand with a `code` field, not sent as a v2 error, is not read
 * for one. A real Fastify app, answered with `inject`.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

import { registerAccessLog } from './access-log.js';
import { send, v2Error } from './respond.js';

describe('the access line of a 5xx answer', () => {
  it('ends with the code of the error the route answered, however long its body', async () => {
    const lines: string[] = [];
    const record = (level: string) => (msg: string) => void lines.push(`${level} ${msg}`);
    const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
    const app = Fastify({ logger: false });
    registerAccessLog(app, logger, () => undefined);
    app.get('/long', async (_request, reply) => send(reply, v2Error('STORE_IO', `Failed: ${'x'.repeat(70_000)}`)));
    app.get('/by-hand', async (_request, reply) => reply.code(500).send({ success: false, code: 'MADE_UP' }));
    try {
      const long = await app.inject({ method: 'GET', url: '/long' });
      expect([long.statusCode, long.json()]).toMatchObject([500, { code: 'STORE_IO' }]);
      expect(long.body.length).toBeGreaterThan(64 * 1024);
      expect((await app.inject({ method: 'GET', url: '/by-hand' })).statusCode).toBe(500);
      expect(lines).toEqual([
        expect.stringMatching(/^error GET \/long 500 \d+ ms 127\.0\.0\.1 STORE_IO$/),
        expect.stringMatching(/^error GET \/by-hand 500 \d+ ms 127\.0\.0\.1 UNKNOWN_ERROR$/),
      ]);
    } finally {
      await app.close();
    }
  });
});
