/**
 * What `crawlkit serve` says on stderr while it runs, by default: one line per event, `<ISO time> <level> <message>`:
 * each request's access line (but a successful probe's), a job taken and ended, a 5xx answer as an error with its v2
 * code; `--quiet` keeps warnings and errors, `--log-format json` writes one object a line. Never the API key. The
 * built command, two serve processes (text; quiet JSON) started together, a fixture site on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, startCli } from './cli-helpers.ts';
import { runBuiltChild } from './helpers/built-child.ts';
import { until } from './helpers-batch.ts';

const KEY = 'fc-runlog-KEY-S3CRET';
const WRONG = 'fc-wrong-KEY-S3CRET';
const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (info|warn|error) \S/;

interface Serve {
  base: string;
  stderr: () => string;
  stop: () => Promise<{ code: number | null; stderr: string }>;
  kill: () => void;
}

let site: FixtureServer;
let dir: string;
let text: Serve;
let json: Serve;

async function serve(name: string, flags: string[]): Promise<Serve> {
  const child = startCli(['serve', '--port', '0', '--store', `./${name}`, '--engine', 'http', ...flags], {
    cwd: dir,
    env: { DEBUG: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
  return {
    base: stdout.trim(),
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      const { code, stderr: all } = await child.result;
      return { code, stderr: all };
    },
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

const post = (base: string, path: string, body: unknown, key = KEY) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  ensureBuilt();
  site = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-serve-run-log-'));
  // 100 TB: /ready is 503 STORE_FULL on any disk this runs on, a 503 to log as a warning.
  [text, json] = await Promise.all([
    serve('text', ['--api-key', KEY]),
    serve('json', ['--api-key', KEY, '--quiet', '--log-format', 'json', '--ready-min-free', '100000000']),
  ]);
}, 120_000);

afterAll(async () => {
  text?.kill();
  json?.kill();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('serve logs by default', () => {
  it(
    'a line per request, per job taken and ended, a 5xx as an error with its code; no probe, no key',
    { timeout: 90_000 },
    async () => {
      const { base } = text;
      const page = `${site.url}/articles/first-post.html`;
      expect((await post(base, '/v2/scrape', { url: page })).status).toBe(200);
      expect((await post(base, '/v2/scrape', { url: 'http://127.0.0.1:1/' })).status).toBe(500);
      expect((await post(base, '/v2/scrape', { nope: 1 })).status).toBe(400);
      expect((await post(base, '/v2/scrape', { url: page }, WRONG)).status).toBe(401);
      expect((await fetch(`${base}/v2/nope`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(404);
      expect((await fetch(`${base}/health`)).status).toBe(200);
      const crawl = (await (await post(base, '/v2/crawl', { url: `${site.url}/`, limit: 2 })).json()) as { id: string };
      const batch = (await (
        await post(base, '/v2/batch/scrape', { urls: [page, `${site.url}/listing.html`] })
      ).json()) as { id: string };
      // Waits for the events themselves: both jobs' end lines.
      await until(
        () =>
          text.stderr().includes(`crawl ${crawl.id} completed`) &&
          text.stderr().includes(`batch ${batch.id} completed`),
        60_000,
      );
      const { code, stderr } = await text.stop();
      expect(code).toBe(0);
      const lines = stderr.trimEnd().split('\n');
      for (const line of lines) expect(line).toMatch(LINE);
      const tenant = String.raw`127\.0\.0\.1 key-[0-9a-f]{16}`;
      const has = (pattern: string) =>
        expect(
          lines.some((l) => new RegExp(pattern).test(l)),
          pattern,
        ).toBe(true);
      has(String.raw`Z info POST /v2/scrape 200 \d+ ms ${tenant}$`);
      has(String.raw`Z error POST /v2/scrape 500 \d+ ms ${tenant} SCRAPE_CONNECTION_ERROR$`);
      has(String.raw`Z info POST /v2/scrape 400 \d+ ms ${tenant}$`);
      has(String.raw`Z info POST /v2/scrape 401 \d+ ms 127\.0\.0\.1$`);
      has(String.raw`Z info GET /v2/nope 404 \d+ ms ${tenant}$`);
      has(`Z info crawl ${crawl.id} accepted: ${site.url}/$`);
      has(String.raw`Z info crawl ${crawl.id} completed: 2/2 pages in \d+\.\d s$`);
      has(`Z info batch ${batch.id} accepted: 2 URLs$`);
      has(String.raw`Z info batch ${batch.id} completed: 2/2 pages in \d+\.\d s$`);
      // A probe that succeeds is no line; nor is the key, right or wrong, anywhere.
      expect(stderr).not.toContain('/health');
      expect(stderr).not.toContain(KEY);
      expect(stderr).not.toContain(WRONG);
    },
  );

  it('--quiet --log-format json: warnings and errors only, each line a JSON object with its fields', async () => {
    const { base } = json;
    expect((await post(base, '/v2/scrape', { url: `${site.url}/articles/first-post.html` })).status).toBe(200);
    expect((await post(base, '/v2/scrape', { url: 'http://127.0.0.1:1/' })).status).toBe(500);
    expect((await fetch(`${base}/ready`)).status).toBe(503);
    await until(() => json.stderr().includes('"/ready"'), 30_000);
    const { code, stderr } = await json.stop();
    expect(code).toBe(0);
    const entries = stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const entry of entries) {
      expect(entry).toMatchObject({ time: expect.stringMatching(/Z$/), level: expect.any(String) });
      expect(['warn', 'error']).toContain(entry.level);
      expect(Object.keys(entry).slice(0, 3)).toEqual(['time', 'level', 'msg']);
    }
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'error', method: 'POST', path: '/v2/scrape', status: 500 }),
    );
    expect(entries.find((e) => e.status === 500)).toMatchObject({ code: 'SCRAPE_CONNECTION_ERROR', ip: '127.0.0.1' });
    expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', path: '/ready', code: 'STORE_FULL' }));
    // No info line: no access line of the 200, no start line.
    expect(stderr).not.toContain('"status":200');
    expect(stderr).not.toContain('serves the v2 API');
    expect(stderr).not.toContain(KEY);
  });

  it('the library (startServer() and Crawlkit from code, no logger given) writes nothing', async () => {
    const child = await runBuiltChild<{ statuses: number[]; crawl: string }>('library-silent-child.ts', [site.url], {
      killAfterMs: 60_000,
    });
    expect(child.result).toEqual({ statuses: [200, 500, 404], crawl: 'completed' });
    expect(child.out.trim().split('\n')).toHaveLength(1);
  });
});
