/**
 * Runs a child of the tests under `built-hooks.ts` (crawlkit's build: the test calls `ensureBuilt()` first):
 * `node --import built-hooks.ts [--import <hook>...] <script> <args>`, killed after `killAfterMs`. The child prints `result <JSON>` on a line of its
 * own; `result` is that JSON (null when none came), `out` its stdout and stderr together, for a failure's message.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const helpers = fileURLToPath(new URL('./', import.meta.url));

export interface BuiltChild<T> {
  code: number | null;
  out: string;
  result: T | null;
}

export async function runBuiltChild<T>(
  script: string,
  args: string[],
  { imports = [], killAfterMs }: { imports?: string[]; killAfterMs: number },
): Promise<BuiltChild<T>> {
  const hooks = ['built-hooks.ts', ...imports].flatMap((file) => ['--import', join(helpers, file)]);
  const child = spawn(process.execPath, [...hooks, join(helpers, script), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { code, out, result: JSON.parse(/^result (.*)$/m.exec(out)?.[1] ?? 'null') as T | null };
}
