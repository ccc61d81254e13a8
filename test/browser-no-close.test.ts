// A script that used the browser ends as soon as its work is done: with close(), nothing of crawlkit's is left to
// hold the process; without it, once the idle browser is closed (the network gate's listeners included).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, expect, it } from 'vitest';

const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));
const site = createServer((_, res) => res.end('<html><body><p>A page the browser renders.</p></body></html>'));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

/** Runs the child script on the site; resolves with its output and how it ended. */
async function runChild(...args: string[]) {
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'source-hooks.ts'), join(helpers, 'browser-no-close-child.ts'), url, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  // Generous for a loaded machine: the child starts Chromium from sources; a held process never exits at all.
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  return { out, code, signal };
}

it('exits once the idle browser is closed, without close()', async () => {
  const { out, code, signal } = await runChild();
  expect(out).toContain('scraped');
  expect({ code, signal }).toEqual({ code: 0, signal: null });
}, 60_000);

it('holds no timer once close() has resolved (a test runner waits for none)', async () => {
  const { out, code } = await runChild('close');
  expect(out).toContain('scraped');
  const left = JSON.parse(/^left (.*)$/m.exec(out)?.[1] ?? 'null') as string[] | null;
  // Before: the browser's shutdown left a 3 s timer behind (`node --test` waited 3 s more for each file).
  expect(left).not.toContain('Timeout');
  expect(code).toBe(0);
}, 60_000);
