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
const SERVER = join(root, 'packages/server/dist/index.js');
const MCP = join(root, 'packages/mcp/dist/index.js');

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
 * Builds the CLI when it is missing or older than its sources, and the other packages when their build is missing
 * (CI builds everything first; a stale build of another package is for `pnpm build` to fix, not for this test).
 */
export function ensureBuilt(): void {
  const packages = ['store', 'frontier', 'extractor', 'actions', 'fetcher'];
  if (packages.some((pkg) => builtAt(join(root, 'packages', pkg, 'dist/index.js')) === 0)) {
    execFileSync('pnpm', ['build'], { cwd: root, stdio: 'ignore' });
    return;
  }
  if (builtAt(CLI) < newestMtime(join(root, 'packages/crawlkit/src'))) {
    execFileSync('pnpm', ['--filter', 'crawlkit', 'build'], { cwd: root, stdio: 'ignore' });
  }
  // `crawlkit serve` loads @crawlkit/server.
  if (builtAt(SERVER) < newestMtime(join(root, 'packages/server/src'))) {
    execFileSync('pnpm', ['--filter', '@crawlkit/server', 'build'], { cwd: root, stdio: 'ignore' });
  }
  // `crawlkit mcp` loads @crawlkit/mcp.
  if (builtAt(MCP) < newestMtime(join(root, 'packages/mcp/src'))) {
    execFileSync('pnpm', ['--filter', '@crawlkit/mcp', 'build'], { cwd: root, stdio: 'ignore' });
  }
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
