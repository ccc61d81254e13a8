/**
 * Two `crawlkit serve` processes on one store (issue 38, finding 6), as real processes of the built CLI:
 * - when the one running a job is killed with SIGKILL, the other takes the job over and finishes it (before: it
 *   never did, as it only resumed the jobs it found at its start);
 * - a job that ends with a backlog of webhook events has each event delivered by one process only (before: once the
 *   job ended and its lease was let go, both processes sent the backlog, `completed` included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, runCli, startCli } from './cli-helpers.ts';
import { sleep, startReceiver, until } from './helpers-batch.ts';

let site: Server;
let origin: string;
/** Page requests by path. */
const served = new Map<string, number>();
let root: string;

beforeAll(async () => {
  ensureBuilt();
  site = createServer((req, res) => {
    if (req.url === '/robots.txt' || req.url === '/sitemap.xml') return void res.writeHead(404).end();
    const path = req.url ?? '/';
    served.set(path, (served.get(path) ?? 0) + 1);
    const n = Number(path.split('/').pop()) || 0;
    const links = [1, 2, 3].map((i) => `<a href="/p/${n * 3 + i}">next</a>`).join('');
    // Slow pages: a crawl of 40 runs long enough to kill its process midway.
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>Text.</p>${links}</main></body></html>`,
      );
    }, 150);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  root = mkdtempSync(join(tmpdir(), 'ck-two-serves-'));
});
afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

interface Serve {
  url: string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

async function serve(store: string): Promise<Serve> {
  // The survivor looks for the dead one's jobs every 300 ms, not every 10 s: the takeover is not waited out.
  const flags = ['--port', '0', '--store', store, '--engine', 'http', '--resume-scan', '300'];
  const child = startCli(['serve', ...flags], { cwd: root });
  let stdout = '';
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
  if (child.exitCode !== null) throw new Error(`serve exited: ${(await child.result).stderr}`);
  return {
    url: stdout.split('\n')[0]!.trim(),
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await child.result;
    },
  };
}

async function api(url: string, init?: { method: string; body: unknown }): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: init?.method ?? 'GET',
    ...(init ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) } : {}),
  });
  return (await response.json()) as Record<string, unknown>;
}

// The two cases share only the site (pages under /p/ for one, /b/ for the other): they run at once.
describe.concurrent('two serve processes on one store', () => {
  it('the other takes over a job whose process was killed', { timeout: 120_000 }, async () => {
    const store = join(root, 'takeover');
    const a = await serve(store);
    const b = await serve(store);
    try {
      const started = await api(`${a.url}/v2/crawl`, {
        method: 'POST',
        body: { url: `${origin}/p/`, limit: 40, maxConcurrency: 2, sitemap: 'skip' },
      });
      expect(started.success).toBe(true);
      const id = started.id as string;
      await until(() => [...served.keys()].filter((p) => p.startsWith('/p/')).length >= 6, 30_000);
      await a.kill('SIGKILL');
      const deadline = Date.now() + 60_000;
      let status: Record<string, unknown> = {};
      while (Date.now() < deadline) {
        status = await api(`${b.url}/v2/crawl/${id}?limit=100`);
        if (status.status !== 'scraping') break;
        await sleep(200);
      }
      expect(status.status).toBe('completed');
      expect(status.completed).toBe(40);
      expect((status.data as unknown[]).length).toBe(40);
    } finally {
      await a.kill('SIGKILL');
      await b.kill('SIGTERM');
    }
  });

  it('refuses a --resume-scan that is not a positive integer, exit 2', async () => {
    const bad = await runCli(['serve', '--port', '0', '--store', join(root, 'bad'), '--resume-scan', '0'], {
      cwd: root,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Expected --resume-scan to be a positive integer, got "0"');
  });

  it('a webhook backlog is delivered by one process only', { timeout: 120_000 }, async () => {
    const store = join(root, 'backlog');
    // Slow to answer: the batch ends long before its events are all delivered.
    const receiver = await startReceiver({ delayMs: 25 });
    const a = await serve(store);
    const b = await serve(store);
    try {
      const started = await api(`${a.url}/v2/batch/scrape`, {
        method: 'POST',
        body: {
          urls: Array.from({ length: 80 }, (_, i) => `${origin}/b/${i}`),
          maxConcurrency: 20,
          webhook: receiver.url,
        },
      });
      expect(started.success).toBe(true);
      await until(() => receiver.events.some((e) => e.payload.type === 'batch_scrape.completed'), 90_000);
      // Anything a second sender had in flight arrives meanwhile.
      await sleep(1_000);
      const posts = new Map<string, number>();
      for (const id of receiver.deliveryIds) posts.set(id, (posts.get(id) ?? 0) + 1);
      const twice = [...posts.values()].filter((n) => n > 1).length;
      expect(receiver.events.filter((e) => e.payload.type === 'batch_scrape.page')).toHaveLength(80);
      expect(twice, `${twice} of ${posts.size} events were sent more than once`).toBe(0);
    } finally {
      await a.kill('SIGTERM');
      await b.kill('SIGTERM');
      await receiver.close();
    }
  });
});
