// A process that makes one engine after another (a test suite's engine per test) takes the worker threads the last
// one left running, for a moment, rather than starting new ones (~200 ms each); they hold nothing open.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, expect, it } from 'vitest';

const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));
const site = createServer((_, res) => res.end('<html><body><main><h1>Page</h1><p>Some text.</p></main></body></html>'));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

it('extracts the pages of an engine made after another closed on the same thread, and holds nothing after close', async () => {
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'source-hooks.ts'), join(helpers, 'engine-after-close-child.ts'), url],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const result = JSON.parse(/^result (.*)$/m.exec(out)?.[1] ?? 'null') as { threads: number[]; left: string[] } | null;
  expect(result, out).not.toBeNull();
  // Before: the first close() stopped the thread and the second engine started its own
  expect(result!.threads).toHaveLength(2);
  expect(result!.threads[1]).toBe(result!.threads[0]);
  // its stdout and stderr, piped to this test, are the child's own
  expect(result!.left.filter((kind) => kind !== 'PipeWrap')).toEqual([]);
  expect(code).toBe(0);
}, 60_000);
