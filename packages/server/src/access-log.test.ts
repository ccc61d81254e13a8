/**
 * The access line of a 5xx answer ends with its v2 error code, taken from where the answer is built (`sendError`):
 * before, the line parsed the body back out of the bytes sent, and a body over 64 KiB (an error with long details)
 * was logged `UNKNOWN_ERROR`. A body a route wrote by hand with a `code` field, not sent as a v2 error, is not read
 * for one. A real Fastify app, answered with `inject`.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

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

describe('a request whose client went away', () => {
  it('gets a 499 line saying the client closed the connection, with the time it ran and no key', async () => {
    const lines: string[] = [];
    const fields: object[] = [];
    const record = (level: string) => (msg: string, meta?: object) => {
      lines.push(`${level} ${msg}`);
      if (meta) fields.push(meta);
    };
    const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
    const app = Fastify({ logger: false });
    registerAccessLog(app, logger, () => 'key-0123abcd');
    let ended!: () => void;
    const gone = new Promise<void>((resolve) => (ended = resolve));
    app.post('/v2/scrape', async (_request, reply) => {
      // a scrape still running when the client leaves; it answers once its signal would have stopped it
      await new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));
      ended();
      return { success: false };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const client = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v2/scrape?secret=q',
        headers: { 'content-type': 'application/json', authorization: 'Bearer fc-secret-key' },
      });
      client.on('error', () => {});
      client.end(JSON.stringify({ url: 'http://a.test/' }));
      await sleep(300);
      client.destroy();
      await gone;
      await sleep(50);
      expect(lines).toEqual([
        expect.stringMatching(
          /^info POST \/v2\/scrape 499 \d+ ms 127\.0\.0\.1 key-0123abcd client closed the connection$/,
        ),
      ]);
      expect(Number(/ 499 (\d+) ms/.exec(lines[0]!)![1])).toBeGreaterThanOrEqual(250);
      expect(fields[0]).toMatchObject({ method: 'POST', path: '/v2/scrape', status: 499, closed: 'client' });
      expect(JSON.stringify([lines, fields])).not.toMatch(/fc-secret-key|secret=q/);
    } finally {
      await app.close();
    }
  });
});
