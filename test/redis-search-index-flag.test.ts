/**
 * The Redis search index costs ~31 KB and ~0.5 ms of Redis's thread a page (README "Sizing Redis memory"), and only the
 * library option `redis({ searchIndex: false })` turned it off: `crawlkit worker`, `serve --redis` and the `--redis`
 * commands had no flag nor settings-file field, so a deployment run from the shell paid for an index it never read.
 * `--no-redis-search-index` (and `redis.searchIndex: false` in serve's file) now does. A real `redis-server`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveRedis } from '../packages/crawlkit/src/cli/redis-settings.ts';
import { readServeFile } from '../packages/crawlkit/src/cli/serve-config.ts';
import { runWorker } from '../packages/crawlkit/src/cli/worker.ts';
import { startFixtureServer, type FixtureServer, type Routes } from '../fixtures/server.ts';
import { until } from './helpers-batch.ts';
import { ok } from './helpers/job-backends.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

const page = (n: number) => `<!doctype html><title>Wombat ${n}</title><main><p>wombat burrow number ${n}</p></main>`;
const routes: Routes = {
  '/wombat/*': (_req, res, ctx) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(Number(ctx.url.pathname.split('/').pop())));
  },
};
let site: FixtureServer;
let dir: string;
beforeAll(async () => {
  site = await startFixtureServer({ routes });
  dir = mkdtempSync(join(tmpdir(), 'ck-search-index-flag-'));
});
afterAll(async () => {
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('turning the Redis search index off from the command line', () => {
  it('serve reads redis.searchIndex from its settings file; --no-redis-search-index wins over a file without it', () => {
    const config = join(dir, 'crawlkit.config.json');
    writeFileSync(config, JSON.stringify({ redis: { url: 'redis://127.0.0.1:6379', searchIndex: false } }));
    const file = readServeFile({ config }, {}, dir);
    expect(resolveRedis({}, {}, file)).toMatchObject({ searchIndex: false });
    const on = { redis: { url: 'redis://127.0.0.1:6379' } };
    expect(resolveRedis({}, {}, on)).not.toHaveProperty('searchIndex');
    // Commander's `--no-` flag: true unless given.
    expect(resolveRedis({ redisSearchIndex: true }, {}, on)).not.toHaveProperty('searchIndex');
    expect(resolveRedis({ redisSearchIndex: false }, {}, on)).toMatchObject({ searchIndex: false });
  });

  it.skipIf(!testRedisUrl)(
    'a worker started with --no-redis-search-index stores pages that local search does not find',
    { timeout: 60_000 },
    async () => {
      const prefix = `ck-no-index-${randomUUID()}`;
      let text = '';
      const stderr = new PassThrough().setEncoding('utf8');
      stderr.on('data', (chunk: string) => (text += chunk));
      const io = { stdout: new PassThrough(), stderr, stdin: new PassThrough() } as never;
      const stop = new AbortController();
      const flags = { redis: testRedisUrl!, redisPrefix: prefix, engine: 'http', redisSearchIndex: false };
      const running = runWorker(flags, io, stop.signal, { redis });
      const client = new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix }), engine: 'http' });
      try {
        await until(() => text.includes('taking tasks from'), 30_000);
        expect(text).toContain(', no search index');
        const urls = [1, 2].map((n) => `${site.url}/wombat/${n}`);
        const job = ok(await client.waitForJob(ok(await client.batchScrape({ urls })).id));
        expect(job).toMatchObject({ status: 'completed', completed: 2 });
        // The client keeps the index: a page it scrapes itself is found, the worker's two are not.
        ok(await client.scrape({ url: `${site.url}/wombat/3`, formats: ['markdown'] }));
        const found = ok(await client.search({ query: 'wombat', sources: ['local'] }));
        const sources = (found.data.local ?? []).map((hit) => new URL(hit.url).pathname);
        expect(sources).toEqual(['/wombat/3']);
      } finally {
        stop.abort();
        await client.close();
      }
      expect(await running).toBe(0);
    },
  );
});
