/** Runs a client program from npm (its `bin` script) under the test's Node, as a user runs it. */
import { fileURLToPath } from 'node:url';

import { startScript, type CliResult } from '../cli-helpers.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const FIRECRAWL_CLI = `${root}node_modules/firecrawl-cli/dist/index.js`;
export const FIRECRAWL_MCP = `${root}node_modules/firecrawl-mcp/dist/index.js`;

/**
 * Runs `firecrawl <args>` with only `env` (plus PATH, no colours): no variable of the test's own environment leaks
 * in, so the client sees what a user's shell would give it. Killed after `timeoutMs`.
 */
export async function runFirecrawl(
  args: string[],
  options: { cwd: string; env: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  const child = startScript(FIRECRAWL_CLI, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...options.env },
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  try {
    return await child.result;
  } finally {
    clearTimeout(timer);
  }
}
