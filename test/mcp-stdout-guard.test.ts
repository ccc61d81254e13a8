/**
 * `crawlkit mcp` over stdio keeps stdout for JSON-RPC: a dependency that prints (console.log), in the main thread or in
 * a worker thread of the extraction pool, writes to stderr instead of into the host's message stream.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { CLI, ensureBuilt } from './cli-helpers.ts';

/**
 * What a chatty dependency does, loaded into every thread by `NODE_OPTIONS=--require` (Node preloads it in worker
 * threads too): it prints at load and every 50 ms after, naming its thread.
 */
const PRELOAD = `
const { isMainThread, threadId } = require('node:worker_threads');
const where = isMainThread ? 'main thread' : 'worker thread ' + threadId;
console.log('CHATTY loaded in ' + where);
setInterval(() => console.log('CHATTY tick in ' + where), 50).unref();
`;

const dir = mkdtempSync(join(tmpdir(), 'ck-mcp-stdout-'));
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  ensureBuilt();
  writeFileSync(join(dir, 'chatty.cjs'), PRELOAD);
  site = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<html><head><title>Quiet</title></head><body><main><h1>Quiet page</h1><p>Words.</p></main></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

it('answers its calls with a dependency printing in the main thread and in worker threads, the text on stderr', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--store', join(dir, 'store')],
    env: { ...(process.env as Record<string, string>), NODE_OPTIONS: `--require ${join(dir, 'chatty.cjs')}` },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'agent', version: '1.0.0' });
  // Each stdout line that is no JSON-RPC message is an error of the client's transport (the SDK skips the line; a
  // stricter host drops the session).
  const strays: string[] = [];
  let connected = false;
  client.onerror = (error) => {
    if (connected) strays.push(error.message);
  };
  try {
    await client.connect(transport);
    // The preload's line at load is printed before crawlkit runs (nothing in the process can keep it off stdout);
    // every line after the server began answering must be a message.
    connected = true;
    for (const path of ['/a', '/b', '/c']) {
      const answer = (await client.callTool({
        name: 'firecrawl_scrape',
        arguments: { url: `${siteUrl}${path}`, maxAge: 0 },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(answer.isError).toBeFalsy();
      expect(JSON.parse(answer.content[0]!.text)).toMatchObject({
        success: true,
        data: { markdown: '# Quiet page\n\nWords.' },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
  } finally {
    await client.close();
  }
  // Before: the ticks were stdout lines the client could not read ("Unexpected token 'C', "CHATTY tick"…").
  expect(strays).toEqual([]);
  expect(stderr).toMatch(/CHATTY tick in main thread/);
  // A worker thread of the extraction pool started for the pages (after the guard): its line went to stderr too. Its
  // ticks are not waited for: an idle piscina thread sleeps in Atomics.wait, where no timer runs.
  expect(stderr).toMatch(/CHATTY loaded in worker thread \d+/);
}, 120_000);
