/** Runs a client program from npm (its `bin` script) under the test's Node, as a user runs it. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { CliResult } from '../cli-helpers.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const FIRECRAWL_CLI = `${root}node_modules/firecrawl-cli/dist/index.js`;
export const FIRECRAWL_MCP = `${root}node_modules/firecrawl-mcp/dist/index.js`;

/**
 * Runs `firecrawl <args>` with only `env` (plus PATH): no variable of the test's own environment leaks in, so the
 * client sees what a user's shell would give it.
 */
export function runFirecrawl(
  args: string[],
  options: { cwd: string; env: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  const child = spawn(process.execPath, [FIRECRAWL_CLI, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
