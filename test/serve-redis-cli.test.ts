/**
 * The distributed mode from a shell, with no script: `crawlkit serve --redis` (or its settings file) submits the jobs
 * of its HTTP API to Redis, a `crawlkit worker` process runs their pages, and `crawlkit status`/`cancel`/`resume
 * --redis` see and steer them. All built commands as child processes, against a real `redis-server`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer, type Routes } from '../fixtures/server.ts';
import { ensureBuilt, runCli, startCli } from './cli-helpers.ts';
import { treeSite } from './distributed/tree-site.ts';
import { expectFetchedOnce } from './helpers/fetched-once.ts';
import { until } from './helpers-batch.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();
const site = treeSite(40);

/**
 * A site whose first page answers at once and the others once `open()` is called: a crawl of it runs until the test
 * says, so it is followed or cancelled while it runs, whatever the load.
 */
function gatedSite(prefix: string, size: number) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const routes: Routes = {
    [`${prefix}/*`]: async (_req, res, ctx) => {
      const n = Number(ctx.url.pathname.slice(prefix.length + 1));
      if (!Number.isInteger(n) || n < 1 || n > size) return void res.writeHead(404).end();
      if (n > 1) await gate;
      const links = Array.from({ length: size }, (_, i) => `<a href="${prefix}/${i + 1}">Page ${i + 1}</a>`).join(' ');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Page ${n}</title><main><h1>Page ${n}</h1><p>${links}</p></main>`);
    },
  };
  return { routes, open };
}
const followedSite = gatedSite('/followed', 8);
const cancelledSite = gatedSite('/cancelled', 30);
let server: FixtureServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  server = await startFixtureServer({ routes: { ...site.routes, ...followedSite.routes, ...cancelledSite.routes } });
  dir = mkdtempSync(join(tmpdir(), 'ck-serve-redis-'));
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The Redis of a test: the test server's URL and a prefix of its own; `env` without the variables of the test's. */
function deployment() {
  const prefix = `ck-serve-${randomUUID()}`;
  const env = { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' };
  return { url: testRedisUrl!, prefix, env, flags: ['--redis', testRedisUrl!, '--redis-prefix', prefix] };
}

/** Starts a long-running command and resolves once `ready` matches its output (stdout or stderr). */
async function start(args: string[], ready: RegExp, env: Record<string, string> = {}) {
  const child = startCli(args, { cwd: dir, env });
  let output = '';
  const onData = (chunk: string) => (output += chunk);
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  await until(() => ready.test(output) || child.exitCode !== null, 60_000);
  if (child.exitCode !== null) throw new Error(`crawlkit ${args[0]} exited: ${output}`);
  return { child, output: () => output };
}

async function api(url: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function stop(child: ReturnType<typeof startCli>): Promise<number | null> {
  if (child.exitCode === null) child.kill('SIGTERM');
  return (await child.result).code;
}

describe.skipIf(!testRedisUrl)('crawlkit serve --redis with crawlkit worker', () => {
  it(
    'serve (its settings file) submits a crawl a worker (its environment) runs, every page once; status --redis reads it',
    { timeout: 120_000 },
    async () => {
      const { url, prefix, env, flags } = deployment();
      const config = join(dir, 'redis.config.json');
      writeFileSync(config, JSON.stringify({ redis: { url, prefix } }));
      const serve = await start(['serve', '--port', '0', '--config', config], /^http:\/\/\S+\n/m, env);
      const worker = await start(['worker', '--engine', 'http', '--redis-prefix', prefix], /taking tasks from/, {
        ...env,
        CRAWLKIT_REDIS_URL: url,
      });
      try {
        const base = serve.output().match(/^(http:\/\/\S+)\n/m)![1]!;
        expect(serve.output()).toContain(`jobs in Redis at ${url} (prefix ${prefix})`);

        const started = await api(`${base}/v2/crawl`, 'POST', {
          url: `${server.url}/tree/1`,
          crawlEntireDomain: true,
          limit: 40,
        });
        const id = started.id as string;
        expect(started).toMatchObject({ success: true });
        await until(async () => (await api(`${base}/v2/crawl/${id}`, 'GET')).status === 'completed', 60_000);
        const done = await api(`${base}/v2/crawl/${id}?limit=100`, 'GET');
        expect(done).toMatchObject({ status: 'completed', total: 40, completed: 40 });
        // Its end is logged by serve as without Redis, though a worker ended it (before: only its acceptance).
        await until(() => serve.output().includes(`crawl ${id} completed: 40/40 pages in `), 30_000);
        expect(serve.output()).toMatch(new RegExp(String.raw`Z info crawl ${id} accepted: `));
        const urls = (done.data as { metadata: { sourceURL: string } }[]).map((d) => new URL(d.metadata.sourceURL));
        expect(urls.map((u) => u.pathname).sort()).toEqual(site.paths().sort());
        // serve runs no page of a job.
        expectFetchedOnce(site, server.url, worker.output());
        expect(worker.output().match(/Z info page /g)).toHaveLength(40);

        const status = await runCli(['status', id, ...flags], { cwd: dir, env });
        expect(status).toMatchObject({ code: 0 });
        expect(status.stdout).toMatch(/kind:\s+crawl\n/);
        expect(status.stdout).toMatch(/status:\s+completed\n/);
        expect(status.stdout).toMatch(/progress:\s+40\/40 pages/);
        // From the environment too, with the v2 status and its pages.
        const json = await runCli(['status', id, '--json', '--limit', '100'], {
          cwd: dir,
          env: { CRAWLKIT_REDIS_URL: url, CRAWLKIT_REDIS_PREFIX: prefix },
        });
        expect(json.code).toBe(0);
        expect(JSON.parse(json.stdout)).toMatchObject({ status: 'completed', completed: 40 });
        expect((JSON.parse(json.stdout) as { data: unknown[] }).data).toHaveLength(40);
        // Nothing was written to a store directory.
        expect(existsSync(join(dir, '.crawlkit'))).toBe(false);
      } finally {
        expect(await stop(worker.child)).toBe(0);
        expect(await stop(serve.child)).toBe(0);
      }
    },
  );

  it('resume --redis follows a job its workers run, and cancel --redis stops one', { timeout: 120_000 }, async () => {
    const { prefix, env, flags } = deployment();
    const serve = await start(['serve', '--port', '0', ...flags], /^http:\/\/\S+\n/m, env);
    const worker = await start(
      ['worker', '--engine', 'http', '--concurrency', '2', ...flags],
      /taking tasks from/,
      env,
    );
    try {
      const base = serve.output().match(/^(http:\/\/\S+)\n/m)![1]!;
      const crawl = async (path: string, limit: number) => {
        const started = await api(`${base}/v2/crawl`, 'POST', {
          url: `${server.url}${path}/1`,
          crawlEntireDomain: true,
          limit,
        });
        const id = started.id as string;
        await until(async () => ((await api(`${base}/v2/crawl/${id}`, 'GET')).completed as number) >= 1, 60_000);
        return id;
      };

      const followed = await crawl('/followed', 8);
      const status = await runCli(['status', followed, ...flags], { cwd: dir, env });
      expect(status.stdout).toMatch(/status:\s+scraping\n/);
      expect(status.stdout).toMatch(/progress:\s+1\/\d+ pages/);
      expect(status.stderr).toContain(
        `crawlkit resume ${followed} --redis "${testRedisUrl}" --redis-prefix "${prefix}"`,
      );
      const resume = await start(['resume', followed, '--ndjson', ...flags], /followed \(its workers run it\)/, env);
      followedSite.open();
      const resumed = await resume.child.result;
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toContain(`crawl ${followed} completed: 7 pages since the resume (8 in all)`);
      expect(resumed.stderr).toMatch(/followed \(its workers run it\) at 1\/\d+ pages/);
      // The pages to come: the 7 the workers stored while it followed the job.
      const printed = resumed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { metadata: { sourceURL: string } });
      expect(printed.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual([
        '/followed/2',
        '/followed/3',
        '/followed/4',
        '/followed/5',
        '/followed/6',
        '/followed/7',
        '/followed/8',
      ]);
      expect((await api(`${base}/v2/crawl/${followed}`, 'GET')).status).toBe('completed');

      const cancelled = await crawl('/cancelled', 30);
      const cancel = await runCli(['cancel', cancelled, ...flags], { cwd: dir, env });
      expect(cancel).toMatchObject({ code: 0, stdout: `cancelled crawl ${cancelled}\n` });
      cancelledSite.open();
      const after = await runCli(['status', cancelled, ...flags], { cwd: dir, env });
      expect(after.stdout).toMatch(/status:\s+cancelled\n/);
      expect((await api(`${base}/v2/crawl/${cancelled}`, 'GET')).status).toBe('cancelled');
      // Both ends are serve's lines once each: the one a worker completed, the one another process cancelled.
      await until(() => serve.output().includes(`crawl ${cancelled} cancelled`), 30_000);
      expect(serve.output().match(new RegExp(`crawl ${followed} completed: 8/8 pages`, 'g'))).toHaveLength(1);
      expect(serve.output().match(new RegExp(`crawl ${cancelled} cancelled`, 'g'))).toHaveLength(1);
    } finally {
      expect(await stop(worker.child)).toBe(0);
      expect(await stop(serve.child)).toBe(0);
    }
  });
});

describe('crawlkit serve, status, cancel, worker --redis: bad input', () => {
  const env = { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' };
  const id = '0193aaaa-0000-7000-8000-000000000000';

  it('a URL that is not redis:// or rediss:// is bad input (exit 2), in every command', async () => {
    for (const args of [
      ['serve', '--port', '0', '--redis', 'http://127.0.0.1:6379'],
      ['status', id, '--redis', 'localhost:6379'],
      ['cancel', id, '--redis', 'not a url'],
      ['resume', id, '--redis', 'http://127.0.0.1:6379'],
      ['worker', '--redis', 'http://127.0.0.1:6379'],
    ]) {
      const result = await runCli(args, { cwd: dir, env });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(/^crawlkit: Expected --redis to be a Redis URL, redis:\/\//);
    }
  });

  it('bad flags are bad input (exit 2): --redis without a URL, --redis with --store, an unknown flag', async () => {
    const noValue = await runCli(['status', id, '--redis'], { cwd: dir, env });
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toContain("option '--redis <url>' argument missing");
    const both = await runCli(['cancel', id, '--redis', 'redis://127.0.0.1:6379', '--store', './s'], { cwd: dir, env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Choose one of --store and --redis');
    const unknown = await runCli(['status', id, '--redis-prefx', 'x'], { cwd: dir, env });
    expect(unknown.code).toBe(2);
  });

  it('nothing listening: serve does not start, status says where it looked (exit 1)', { timeout: 60_000 }, async () => {
    const closed = 'redis://127.0.0.1:1';
    const serve = await runCli(['serve', '--port', '0', '--redis', closed], { cwd: dir, env });
    expect(serve.code).toBe(1);
    expect(serve.stdout).toBe('');
    expect(serve.stderr).toContain(`crawlkit: Cannot use Redis at ${closed}: `);
    expect(serve.stderr).toContain('is redis-server running at that address?');
    const status = await runCli(['status', id], { cwd: dir, env: { ...env, CRAWLKIT_REDIS_URL: closed } });
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('ECONNREFUSED 127.0.0.1:1: is redis-server running at that address?');
  });
});
