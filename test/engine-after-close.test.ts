// A process that makes one engine after another (a test suite's engine per test) takes the worker threads the last
// one left running, for a moment, rather than starting new ones (~200 ms each); they hold nothing open.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { ensureBuilt } from './cli-helpers.ts';
import { runBuiltChild } from './helpers/built-child.ts';

const site = createServer((_, res) => res.end('<html><body><main><h1>Page</h1><p>Some text.</p></main></body></html>'));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
beforeAll(() => void ensureBuilt());
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

it('extracts the pages of an engine made after another closed on the same thread, and holds nothing after close', async () => {
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const { code, out, result } = await runBuiltChild<{ threads: number[]; left: string[] }>(
    'engine-after-close-child.ts',
    [url],
    { killAfterMs: 40_000 },
  );
  expect(result, out).not.toBeNull();
  // Before: the first close() stopped the thread and the second engine started its own
  expect(result!.threads).toHaveLength(2);
  expect(result!.threads[1]).toBe(result!.threads[0]);
  // its stdout and stderr, piped to this test, are the child's own
  expect(result!.left.filter((kind) => kind !== 'PipeWrap')).toEqual([]);
  expect(code).toBe(0);
}, 60_000);
