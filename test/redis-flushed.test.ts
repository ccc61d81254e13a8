/**
 * Redis restarted without persistence (or flushed) under a worker with pages in hand: the worker printed one
 * `error (not a page) … No job with id … (STORE_JOB_NOT_FOUND)` line per page it held, and nothing said what had
 * happened. It now says once per job that the job is gone from the store, what may have caused it and what to do.
 * A real `redis-server` (FLUSHALL loses the data as a restart without persistence does).
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runWorker } from '../packages/crawlkit/src/cli/worker.ts';
import { startFixtureServer, type FixtureServer, type Routes } from '../fixtures/server.ts';
import { until } from './helpers-batch.ts';
import { ok } from './helpers/job-backends.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

const PAGES = 5;
let open!: () => void;
const gate = new Promise<void>((resolve) => (open = resolve));
let asked = 0;
let answered = 0;
const routes: Routes = {
  '/held/*': async (_req, res) => {
    asked++;
    await gate;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Held</title><main><p>A page held until Redis lost its data.</p></main>', () => {
      answered++;
    });
  },
};

/** Sends one command to the server, as `redis-cli` would, and resolves with its answer. */
function command(url: string, ...args: string[]): Promise<string> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.once('error', reject);
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString());
    });
    socket.write(`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`);
  });
}

let site: FixtureServer;
let server: RedisServer | undefined;
beforeAll(async () => {
  site = await startFixtureServer({ routes });
  server = await ownRedisServer();
});
afterAll(async () => {
  open();
  await site?.close();
  await stopOwnRedisServer(server);
});

describe('a worker whose job is gone from Redis', () => {
  it('says once per job that the job is gone and why that may be, not once per page', { timeout: 60_000 }, async () => {
    if (!server) return;
    const prefix = `ck-flushed-${randomUUID()}`;
    let text = '';
    const stderr = new PassThrough().setEncoding('utf8');
    stderr.on('data', (chunk: string) => (text += chunk));
    const io = { stdout: new PassThrough(), stderr, stdin: new PassThrough() } as never;
    const stop = new AbortController();
    const running = runWorker({ redis: server.url, redisPrefix: prefix, engine: 'http' }, io, stop.signal, { redis });
    const client = new Crawlkit({ backend: redis({ url: server.url, prefix }), engine: 'http' });
    let id: string | undefined;
    try {
      await until(() => text.includes('taking tasks from'), 30_000);
      const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}/held/${i + 1}`);
      id = ok(await client.batchScrape({ urls })).id;
      await until(() => asked === PAGES, 30_000);
      expect(await command(server.url, 'FLUSHALL')).toBe('+OK\r\n');
      open();
      await until(() => answered === PAGES, 30_000);
    } finally {
      // The worker finishes the pages in hand before it stops: every one has met the missing job by then.
      stop.abort();
      await client.close();
    }
    expect(await running).toBe(0);
    // `<ISO time> <level> <message>`: the error lines, without their time.
    const errors = text
      .split('\n')
      .filter((line) => / error /.test(line))
      .map((line) => line.replace(/^\S+Z /, ''));
    expect(errors).toEqual([
      `error (not a page) job ${id}: Job ${id} is gone from the store while this worker ran its pages, which are ` +
        'dropped: was Redis restarted without persistence, or flushed? Submit the job again (and give Redis ' +
        'persistence: appendonly yes). (STORE_JOB_NOT_FOUND)',
    ]);
    expect(text).toMatch(/worker stopped: 0 pages stored, 0 failed, 1 errors not of a page/);
  });
});
