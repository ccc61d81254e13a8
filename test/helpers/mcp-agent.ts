/**
 * What the agent-call tests of `crawlkit mcp` share (mcp-agent-calls.test.ts, mcp-agent-cancel.test.ts): a site of
 * `PAGES` linked pages (slow under /slow/, a webhook receiver at /hook) and the built `crawlkit mcp` over stdio on a
 * store in a temporary directory, with `call` running one of its tools as an agent does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll } from 'vitest';

import { CLI, ensureBuilt } from '../cli-helpers.ts';

export const PAGES = 130;

/** What `useMcpAgent` starts before the file's tests. */
export interface McpAgent {
  siteUrl: string;
  /** The client connected to `crawlkit mcp` over stdio. */
  client: Client;
}

/** Where the file's tests hear from the fixture. */
export interface McpAgentHooks {
  /** Given the agent once it has started. */
  started(agent: McpAgent): void;
  /** Given the id of each crawl.started webhook event the site receives. */
  crawlStarted(id: string): void;
  /** Given what `crawlkit mcp` writes on stderr. */
  stderr(chunk: string): void;
}

/**
 * Registers the file's `beforeAll`/`afterAll` that start the site and `crawlkit mcp` and close them; returns the
 * store's directory (removed after the file) and `call`.
 */
export function useMcpAgent(hooks: McpAgentHooks) {
  const dir = mkdtempSync(join(tmpdir(), 'ck-mcp-agent-'));
  let site: Server | undefined;
  let client: Client | undefined;

  beforeAll(async () => {
    ensureBuilt();
    // Page i links to pages 5i+1 … 5i+5: PAGES pages reached from the root. Under /slow/, each answers in 300 ms.
    site = createServer((req, res) => {
      if (req.url === '/hook') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          const event = JSON.parse(body) as { type: string; id: string };
          if (event.type === 'crawl.started') hooks.crawlStarted(event.id);
          res.end();
        });
        return;
      }
      const slow = req.url?.startsWith('/slow/') ? '/slow' : '';
      const path = (req.url ?? '').slice(slow.length);
      const i = path === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? -1);
      if (!(i >= 0 && i < PAGES)) return void res.writeHead(404).end();
      const links = [1, 2, 3, 4, 5].map((k) => i * 5 + k).filter((k) => k < PAGES);
      res.setHeader('content-type', 'text/html');
      const page =
        `<html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1>` +
        `<p>Page number ${i} of the site, with enough words to be its main content.</p>` +
        `${links.map((k) => `<a href="${slow}/p/${k}">page ${k}</a>`).join(' ')}</main></body></html>`;
      if (slow) setTimeout(() => res.end(page), 300);
      else res.end(page);
    });
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--store', dir],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => hooks.stderr(chunk.toString()));
    client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(transport);
    hooks.started({ siteUrl, client });
  }, 300_000);

  afterAll(async () => {
    await client?.close();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Calls a tool as an agent does; its text answer parsed as JSON. */
  async function call(name: string, args: Record<string, unknown>) {
    const raw = (await client!.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: { type: string; text?: string }[];
    };
    const text = raw.content.map((c) => c.text ?? '').join('');
    let json: Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      json = JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    } catch {
      json = undefined;
    }
    return { isError: raw.isError === true, text, json };
  }

  return { dir, call };
}
