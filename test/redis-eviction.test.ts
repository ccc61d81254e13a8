/**
 * A Redis whose `maxmemory-policy` evicts keys (`allkeys-lru`) would drop jobs, their queued tasks and results without
 * a word once it reaches `maxmemory` (found walking distributed mode as an operator: only BullMQ warned, and a job
 * missing an evicted task never ended). The backend refuses it at start, naming the setting to change; the library's
 * `allowEviction` and the commands' `--redis-allow-eviction` go on anyway. A real `redis-server` of the file's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, runCli, startCli } from './cli-helpers.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

let server: RedisServer | undefined;
let dir: string;
const env = { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' };
const REFUSAL = "Redis's maxmemory-policy is allkeys-lru";

beforeAll(async () => {
  ensureBuilt();
  server = await ownRedisServer(['--maxmemory-policy', 'allkeys-lru']);
  dir = mkdtempSync(join(tmpdir(), 'ck-eviction-'));
}, 180_000);
afterAll(async () => {
  await stopOwnRedisServer(server);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a Redis that evicts keys', () => {
  it('is refused by the library, naming the setting, unless allowEviction', async () => {
    if (!server) return;
    const refused = new Crawlkit({ backend: redis({ url: server.url, prefix: 'ck-evict-lib' }), engine: 'http' });
    try {
      const crawl = await refused.crawl({ url: 'http://127.0.0.1:1/' });
      expect(crawl).toMatchObject({ success: false, code: 'REDIS_EVICTION_POLICY' });
      expect(!crawl.success && crawl.error).toContain(REFUSAL);
      expect(!crawl.success && crawl.error).toContain('maxmemory-policy noeviction');
    } finally {
      await refused.close();
    }
    const allowed = new Crawlkit({
      backend: redis({ url: server.url, prefix: 'ck-evict-lib', allowEviction: true }),
      engine: 'http',
    });
    try {
      expect(await allowed.crawl({ url: 'http://127.0.0.1:1/' })).toMatchObject({ success: true });
    } finally {
      await allowed.close();
    }
  });

  it(
    'stops crawlkit worker and serve at start (exit 1); --redis-allow-eviction goes on',
    { timeout: 60_000 },
    async () => {
      if (!server) return;
      const flags = ['--redis', server.url, '--redis-prefix', 'ck-evict-cli'];
      // In turn, both in the test's process: at once, the second was a child (~1.4 s of CPU to start and refuse).
      const worker = await runCli(['worker', ...flags], { cwd: dir, env });
      const serve = await runCli(['serve', '--port', '0', ...flags], { cwd: dir, env });
      expect(worker.code).toBe(1);
      expect(worker.stderr).toContain(REFUSAL);
      expect(worker.stderr).toContain('(REDIS_EVICTION_POLICY)');
      expect(serve.code).toBe(1);
      expect(serve.stdout).toBe('');
      expect(serve.stderr).toContain(REFUSAL);

      const going = startCli(['worker', ...flags, '--redis-allow-eviction'], { cwd: dir, env });
      const started = await new Promise<boolean>((resolve) => {
        let output = '';
        going.stderr!.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('taking tasks from')) resolve(true);
        });
        going.once('exit', () => resolve(false));
      });
      going.kill('SIGTERM');
      const stopped = await going.result;
      expect(started).toBe(true);
      expect(stopped.code).toBe(0);
    },
  );
});
