/**
 * `firecrawl-mcp`'s `firecrawl_parse` tool, unchanged, against `crawlkit serve`: the MCP server (its stdio
 * transport, as an MCP client starts it) reads a local file and uploads it to `POST /v2/parse` of the self-hosted API
 * named by `FIRECRAWL_API_URL`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeDocx } from '../packages/documents/src/__fixtures__/writers.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';
const golden = (format: string) =>
  readFileSync(new URL(`../packages/documents/src/__fixtures__/golden/${format}.md`, import.meta.url), 'utf8').trim();
const MCP_SERVER = createRequire(import.meta.url).resolve('firecrawl-mcp/dist/index.js');

let stack: ServeStack;
let client: Client;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ck-mcp-'));
  writeFileSync(join(dir, 'report.docx'), await makeDocx());
  stack = await startServeStack({ server: { apiKeys: [KEY] } });
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_SERVER],
    env: { ...env, FIRECRAWL_API_URL: stack.server.url, FIRECRAWL_API_KEY: KEY },
    stderr: 'ignore',
  });
  client = new Client({ name: 'crawlkit-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('firecrawl-mcp firecrawl_parse against crawlkit serve', () => {
  it('parses a local DOCX into its golden markdown', async () => {
    const result = await client.callTool({
      name: 'firecrawl_parse',
      arguments: { filePath: join(dir, 'report.docx'), formats: ['markdown'] },
    });
    expect(result.isError).toBeFalsy();
    const content = result.content as { type: string; text: string }[];
    const body = JSON.parse(content[0]!.text) as { markdown?: string; data?: { markdown?: string } };
    const markdown = body.data?.markdown ?? body.markdown;
    expect(markdown?.trim()).toBe(golden('docx'));
  });
});
