/**
 * Runs the BUILT `crawlkit` command (packages/crawlkit/dist/cli.js) as a child process, building it first when its
 * sources are newer than the build.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(root, 'packages/crawlkit/dist/cli.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

function builtAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Builds the packages when a build is missing or older than its sources (`pnpm build`, in dependency order and
 * incremental, so only what changed is compiled): the CLI runs the built code of every package it loads, and a
 * stale `@crawlkit/store` fails it as surely as a stale `crawlkit`.
 */
export function ensureBuilt(): void {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const stale = packages.some(({ name }) => {
    const dir = join(root, 'packages', name);
    return builtAt(join(dir, 'dist/index.js')) < newestMtime(join(dir, 'src'));
  });
  if (stale) execFileSync('pnpm', ['build'], { cwd: root, stdio: 'ignore' });
}

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
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return Object.assign(child, { result });
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return startCli(args, options).result;
}

/** Quotes an argument for `sh -c`. */
export function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}
