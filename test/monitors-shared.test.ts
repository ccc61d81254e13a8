/**
 * A monitor's checks added at once by two processes on one SQLite store (an engine here, a `crawlkit serve` child):
 * every check is listed. Before, the list was one record each process read and rewrote, and the last write dropped
 * what the other had added.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, startCli } from './cli-helpers.ts';
import { until } from './helpers-batch.ts';

let site: Server;
let origin: string;
let root: string;

beforeAll(async () => {
  ensureBuilt();
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body><main><h1>${req.url}</h1><p>Text.</p></main></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  root = mkdtempSync(join(tmpdir(), 'ck-monitors-shared-'));
});
afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe('a monitor on one store shared by two processes', () => {
  it('lists every check when both add checks at once', { timeout: 120_000 }, async () => {
    const store = join(root, 'store');
    const ck = new Crawlkit({ storeDir: store, engine: 'http' });
    const child = startCli(['serve', '--port', '0', '--store', store, '--engine', 'http'], { cwd: root });
    try {
      let stdout = '';
      child.stdout!.on('data', (chunk: string) => (stdout += chunk));
      await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
      if (child.exitCode !== null) throw new Error(`serve exited: ${(await child.result).stderr}`);
      const url = stdout.split('\n')[0]!.trim();

      const created = await ck.monitors.create({
        name: 'shared',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'scrape', urls: [`${origin}/a`] }],
      });
      if (!created.success) throw new Error(JSON.stringify(created));
      const id = created.data.id;
      const runHere = async () => {
        const run = await ck.monitors.run(id);
        if (!run.success) throw new Error(JSON.stringify(run));
        return run.data.id;
      };
      const runThere = async () => {
        const response = await fetch(`${url}/v2/monitor/${id}/run`, { method: 'POST' });
        const body = (await response.json()) as { success: boolean; data: { id: string } };
        if (!body.success) throw new Error(JSON.stringify(body));
        return body.data.id;
      };
      const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? runHere() : runThere())));
      expect(new Set(ids).size).toBe(12);

      const listed = await ck.monitors.checks(id, { limit: 100 });
      if (!listed.success) throw new Error(JSON.stringify(listed));
      expect(listed.data.map((c) => c.id).sort()).toEqual([...ids].sort());
      const there = (await (await fetch(`${url}/v2/monitor/${id}/checks?limit=100`)).json()) as {
        data: { id: string }[];
      };
      expect(there.data.map((c) => c.id).sort()).toEqual([...ids].sort());
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      await child.result;
      await ck.close();
    }
  });
});
