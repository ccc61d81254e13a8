/**
 * Runs the BUILT `crawlkit` command (packages/crawlkit/dist/cli.js) as a child process; `ensureBuilt()` builds the
 * packages first when their sources are newer than their build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(root, 'packages/crawlkit/dist/cli.js');

export { ensureBuilt } from '../scripts/packed/build.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  input?: string;
  env?: Record<string, string>;
}

/** Starts the CLI with pipes for stdin, stdout and stderr. */
export function startCli(args: string[], options: CliOptions): ChildProcess & { result: Promise<CliResult> } {
  return startScript(CLI, args, { ...options, env: { ...process.env, ...options.env } as Record<string, string> });
}

/**
 * Starts a Node script under the test's Node with pipes, its environment exactly `options.env` (no variable of the
 * test's own leaks in unless given).
 */
export function startScript(
  script: string,
  args: string[],
  options: CliOptions,
): ChildProcess & { result: Promise<CliResult> } {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: options.cwd,
    env: options.env ?? {},
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A command that refuses its arguments can exit before reading its input: the write then fails with EPIPE, which
  // is no error of the test (unheard, it failed a whole suite run as an uncaught exception).
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return Object.assign(child, { result });
}

/**
 * `crawlkit worker` over HTTP on a test Redis under `prefix`, with a task lock of `taskLockMs` (a killed worker's page
 * is taken over that long after), the Redis settings of the environment cleared.
 */
export function startRedisWorker(
  redisUrl: string,
  prefix: string,
  taskLockMs: number,
  cwd: string,
): ChildProcess & { result: Promise<CliResult> } {
  const args = ['worker', '--engine', 'http', '--redis', redisUrl, '--redis-prefix', prefix];
  return startCli([...args, '--task-lock-ms', `${taskLockMs}`], {
    cwd,
    env: { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' },
  });
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return startCli(args, options).result;
}

/** Quotes an argument for `sh -c`. */
export function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}
