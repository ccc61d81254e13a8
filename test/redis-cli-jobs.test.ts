/**
 * `crawlkit crawl` and `crawlkit batch` with `--redis`: a user who scales out submits from a shell with no script.
 * The job goes to Redis, a `crawlkit worker` process runs its pages, and the command prints them as they land and
 * exits when the job ends. Built commands as child processes, against a real `redis-server`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, runCli, startCli } from './cli-helpers.ts';
import { treeSite } from './distributed/tree-site.ts';
import { expectFetchedOnce } from './helpers/fetched-once.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();
const site = treeSite(20, { prefix: '/jobs' });
let server: FixtureServer;
let dir: string;
const prefix = `ck-cli-jobs-${randomUUID()}`;
const env = { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' };
let worker: ReturnType<typeof startCli> | undefined;
let workerOutput = '';

beforeAll(async () => {
  ensureBuilt();
  server = await startFixtureServer({ routes: site.routes });
  dir = mkdtempSync(join(tmpdir(), 'ck-redis-cli-jobs-'));
  if (!testRedisUrl) return;
  worker = startCli(['worker', '--engine', 'http', '--redis', testRedisUrl, '--redis-prefix', prefix], {
    cwd: dir,
    env,
  });
  await new Promise<void>((resolve, reject) => {
    worker!.stderr!.on('data', (chunk: string) => {
      workerOutput += chunk;
      if (workerOutput.includes('taking tasks from')) resolve();
    });
    worker!.once('exit', () => reject(new Error(`crawlkit worker exited: ${workerOutput}`)));
  });
}, 180_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    await worker.result;
  }
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The source URLs of an `--ndjson` output, one document a line. */
function pagesOf(stdout: string): string[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { metadata: { sourceURL: string } }).metadata.sourceURL);
}

describe.skipIf(!testRedisUrl)('crawlkit crawl and batch --redis', () => {
  it(
    'crawl --redis queues the crawl for the workers and prints its pages as they land',
    { timeout: 60_000 },
    async () => {
      const flags = ['--redis', testRedisUrl!, '--redis-prefix', prefix];
      const crawl = await runCli(
        ['crawl', `${server.url}/jobs/1`, '--crawl-entire-domain', '--limit', '20', '--ndjson', ...flags],
        { cwd: dir, env },
      );
      expect(crawl.code).toBe(0);
      expect(crawl.stderr).toMatch(/crawl \S+ queued in Redis at .* \(prefix ck-cli-jobs-/);
      const pages = pagesOf(crawl.stdout).map((u) => new URL(u).pathname);
      expect(pages.sort()).toEqual(site.paths().sort());
      expectFetchedOnce(site, server.url, workerOutput);
    },
  );

  it(
    'batch --redis takes its list from stdin and prints each page the workers store',
    { timeout: 60_000 },
    async () => {
      const urls = [3, 5, 7].map((n) => `${server.url}/jobs/${n}?batch`);
      const batch = await runCli(['batch', '-', '--ndjson', '--redis', testRedisUrl!], {
        cwd: dir,
        env: { ...env, CRAWLKIT_REDIS_PREFIX: prefix },
        input: urls.join('\n'),
      });
      expect(batch.code).toBe(0);
      expect(batch.stderr).toMatch(/batch \S+ queued in Redis at /);
      expect(pagesOf(batch.stdout).sort()).toEqual(urls.sort());
      for (const url of urls) expect(workerOutput).toContain(`${url} (200)`);
    },
  );

  it('--store and --redis together are refused; --help names the flags', async () => {
    const both = await runCli(['crawl', `${server.url}/jobs/1`, '--store', dir, '--redis', testRedisUrl!], {
      cwd: dir,
      env,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Choose one of --store and --redis');
    for (const command of ['crawl', 'batch', 'schedules']) {
      const help = await runCli([command, '--help'], { cwd: dir, env });
      expect(help.stdout).toContain('--redis <url>');
      expect(help.stdout).toContain('--redis-prefix <prefix>');
    }
  });
});
