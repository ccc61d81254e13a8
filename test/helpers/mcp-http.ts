/** `crawlkit mcp` started as a process (over stdio, or `--http`), for the MCP tests. */
import type { ChildProcess } from 'node:child_process';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { CLI } from '../cli-helpers.ts';

/** The `/mcp` URL a `crawlkit mcp --http` process writes to its stderr once it listens. */
export function mcpUrlOf(cli: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    cli.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /http:\/\/\S+\/mcp/.exec(text);
      if (found) resolve(found[0]);
    });
    cli.on('exit', () => reject(new Error(`crawlkit mcp exited: ${text}`)));
  });
}

/** An MCP SDK client connected to `crawlkit mcp <args>` over stdio, as an agent host starts it; `stderr()` its log. */
export async function connectMcpStdio(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'crawlkit-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}
