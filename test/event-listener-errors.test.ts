// An app's event listener that throws is the app's bug: it must not cost the app its page, cut a crawl short or
// keep the event from the other listeners. Run in a child process, where its errors can reach uncaughtException.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { ensureBuilt } from './cli-helpers.ts';

const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));
// / links /p1, which links /p2, then /p3: a crawl of four pages.
const site = createServer((req, res) => {
  const n = Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0);
  const next = (req.url === '/' || req.url?.startsWith('/p')) && n < 3 ? `<a href="/p${n + 1}">next</a>` : '';
  res.writeHead(req.url === '/robots.txt' || req.url?.endsWith('.xml') ? 404 : 200, { 'content-type': 'text/html' });
  res.end(`<html><head><title>Page ${n}</title></head><body><main><p>Page ${n}.</p>${next}</main></body></html>`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
beforeAll(() => void ensureBuilt());
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

it('keeps the page, the crawl and the other listeners when a listener throws, and reports its error', async () => {
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'built-hooks.ts'), join(helpers, 'listener-throws-child.ts'), url],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(out).toMatch(/^result /m);
  expect(code).toBe(0);
  const result = JSON.parse(/^result (.*)$/m.exec(out)![1]!) as Record<string, unknown>;
  expect(result).toEqual({
    scrape: true,
    crawl: { status: 'completed', pages: 4 },
    seen: { page: 5, progress: 4, 'job:started': 1, 'job:completed': 1 },
    caught: ['job:completed listener', 'job:started listener', 'page listener', 'progress listener'],
  });
}, 30_000);
