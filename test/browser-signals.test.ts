// Signals belong to the app that embeds crawlkit, also while its browser runs: a process without a handler of its own
// ends on SIGTERM as Node.js does, and an app's own handlers run their graceful shutdown to its end.
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

/**
 * Runs the child until it has scraped, sends it `signal`, and resolves with its output and how it ended; a child
 * still running 10 s after the signal is killed (SIGKILL).
 */
async function signalled(signal: NodeJS.Signals, ...args: string[]) {
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'source-hooks.ts'), join(helpers, 'browser-signals-child.ts'), url, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let timer: NodeJS.Timeout | undefined;
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (!out.includes('scraped') || timer) return;
    child.kill(signal);
    timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  });
  const [code, ended] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  return { out, code, signal: ended };
}

it('ends on SIGTERM as Node.js does when the app has no handler, its browser running', async () => {
  const { out, code, signal } = await signalled('SIGTERM');
  expect(out).toContain('scraped');
  // Before: puppeteer's own SIGTERM handler closed the browser and kept the process running (SIGKILL after 10 s).
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
}, 60_000);

it.each(['SIGINT', 'SIGTERM'] as const)(
  "lets the app's own %s handler close the engine and end",
  async (sent) => {
    const { out, code, signal } = await signalled(sent, 'handler');
    // Before, on SIGINT: puppeteer's handler exited 130 at once, before the app's could close anything.
    expect(out).toMatch(/scraped\nstopping\nclosed\n/);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  },
  60_000,
);
