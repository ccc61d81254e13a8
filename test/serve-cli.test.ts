/**
 * `crawlkit serve` as a user runs it: the built command, one store shared with the other commands (so `crawlkit
 * status` sees a job started over HTTP), SIGTERM that drains and leaves the job resumable, and the next start that
 * resumes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, runCli, startCli } from './cli-helpers.ts';
import { until } from './helpers-batch.ts';

const KEY = 'fc-cli-0123456789';
let site: FixtureServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  site = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-serve-cli-'));
});

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `crawlkit serve` and resolves once it prints its address. */
async function serve(args: string[]) {
  const child = startCli(['serve', '--port', '0', '--store', './store', ...args], { cwd: dir });
  let stdout = '';
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
  return { child, url: stdout.trim() };
}

async function api(url: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('crawlkit serve', () => {
  it(
    'shares its store with the CLI, drains on SIGTERM and resumes the job at the next start',
    { timeout: 90_000 },
    async () => {
      // Results kept a minute after the job ends, where the default is 24 h: the job keeps its starter's setting.
      const first = await serve(['--api-key', KEY, '--job-ttl', '60000']);
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${first.url}/v2/crawl/active`)).status).toBe(401);

      // One page a second: the crawl is still running when the server stops (3 s of delays after the first page).
      const started = await api(`${first.url}/v2/crawl`, 'POST', { url: `${site.url}/`, limit: 4, delay: 1 });
      const id = started.id as string;
      expect(started.url).toBe(`${first.url}/v2/crawl/${id}`);
      await until(async () => ((await api(`${first.url}/v2/crawl/${id}`, 'GET')).completed as number) >= 1, 20_000);

      first.child.kill('SIGTERM');
      const stopped = await first.child.result;
      expect(stopped.code).toBe(0);
      expect(stopped.stderr).toContain('stopping');
      // Nothing a user did not cause: no deprecation or other warning of Node or a dependency (Fastify's FSTDEP022).
      expect(stopped.stderr).not.toMatch(/Warning|DEP\d/);

      // The other commands see the job started over HTTP, left unfinished and resumable.
      const left = await runCli(['status', id, '--store', './store'], { cwd: dir });
      expect(left.stdout).toMatch(/kind:\s+crawl/);
      expect(left.stdout).toMatch(/status:\s+scraping/);
      expect(left.stdout).not.toMatch(/progress:\s+4\/4/);

      // The next server resumes it (with the key in the environment this time).
      const second = startCli(['serve', '--port', '0', '--store', './store'], {
        cwd: dir,
        env: { CRAWLKIT_API_KEY: KEY },
      });
      let url = '';
      second.stdout!.on('data', (chunk: string) => (url += chunk));
      await until(() => url.includes('\n'), 30_000);
      let done: Record<string, unknown> = {};
      await until(async () => (done = await api(`${url.trim()}/v2/crawl/${id}`, 'GET')).status === 'completed', 30_000);
      expect(done).toMatchObject({ status: 'completed', total: 4, completed: 4 });
      const kept = Date.parse(done.expiresAt as string) - Date.parse(done.completedAt as string);
      expect(kept).toBeGreaterThan(59_000);
      expect(kept).toBeLessThanOrEqual(60_000);
      second.kill('SIGTERM');
      expect((await second.result).code).toBe(0);
    },
  );

  it('--close-timeout bounds the drain on SIGTERM: a request still running is answered, then the process exits', async () => {
    // A page that never answers: the scrape runs until the drain aborts it.
    let asked = false;
    const stuck = await startFixtureServer({ routes: { '/stuck': () => void (asked = true) } });
    const child = startCli(
      ['serve', '--port', '0', '--store', './store', '--engine', 'http', '--close-timeout', '300'],
      {
        cwd: dir,
        env: { CRAWLKIT_API_KEY: KEY },
      },
    );
    let url = '';
    child.stdout!.on('data', (chunk: string) => (url += chunk));
    try {
      await until(() => url.includes('\n'), 30_000);
      const answer = fetch(`${url.trim()}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${stuck.url}/stuck`, timeout: 60_000 }),
      });
      await until(() => asked, 30_000);
      const stopping = Date.now();
      child.kill('SIGTERM');
      const answered = await answer;
      expect(answered.status).toBeGreaterThanOrEqual(400);
      expect(((await answered.json()) as { success: boolean }).success).toBe(false);
      expect((await child.result).code).toBe(0);
      // Well within Docker's 10 s grace period, where the default (30 s) would have been killed.
      expect(Date.now() - stopping).toBeLessThan(8_000);
    } finally {
      child.kill('SIGKILL');
      await stuck.close();
    }
  });

  it('--ready-min-free sets the room /ready requires of the store: 503 STORE_FULL below it; a bad value is exit 2', async () => {
    // 100 TB: more than any disk this runs on has free
    const child = startCli(['serve', '--port', '0', '--store', './store', '--ready-min-free', '100000000'], {
      cwd: dir,
    });
    let url = '';
    child.stdout!.on('data', (chunk: string) => (url += chunk));
    try {
      await until(() => url.includes('\n') || child.exitCode !== null, 30_000);
      const ready = await fetch(`${url.trim()}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ code: 'STORE_FULL', error: expect.stringContaining('100000000 MiB') });
    } finally {
      child.kill('SIGTERM');
      await child.result;
    }
    const bad = await runCli(['serve', '--port', '0', '--store', './store', '--ready-min-free', '-1'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--ready-min-free');
  });

  it('refuses to listen beyond loopback without a key (exit 2)', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--store', './store'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to listen on 0.0.0.0 without an API key');
  });

  it('a bad engine flag is bad input (exit 2) with its own message, as in every other command', async () => {
    const flags = [
      ['--url-policy', 'bogus'],
      ['--engine', 'fast'],
    ];
    const commands = [['serve', '--port', '0'], ['mcp'], ['mcp', '--http', '--port', '0']];
    // One after another in the test's process (a few ms each): run at once, five of the six were children, ~0.6 s of
    // CPU each to start and refuse.
    for (const command of commands) {
      for (const flag of flags) {
        const result = await runCli([...command, '--store', './store', ...flag], { cwd: dir });
        expect({ command, flag, code: result.code }).toEqual({ command, flag, code: 2 });
        expect(result.stderr).toMatch(new RegExp(`^crawlkit: Expected ${flag[0]} to be `));
      }
    }
  });
});
