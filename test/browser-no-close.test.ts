// A script that scraped in the browser and forgot `close()` still ends: once the idle browser is closed, nothing of
// crawlkit's (the network gate's listeners included) holds the process.
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

it('exits once the idle browser is closed, without close()', async () => {
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'source-hooks.ts'), join(helpers, 'browser-no-close-child.ts'), url],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
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
  expect(out).toContain('scraped');
  expect({ code, signal }).toEqual({ code: 0, signal: null });
}, 60_000);
