/**
 * DNS rebinding against a keyless `crawlkit mcp --http` (security review, second day, qa52b): a web page whose name is
 * rebound to 127.0.0.1 sends its own name as `Host`. Before, the MCP endpoint answered any `Host` (an `initialize`
 * and a `firecrawl_scrape` call with `Host: attacker.example` ran); now it applies serve's rule from the same home
 * (`@crawlkit/server`'s `hostAllowed`): keyless, loopback names only, else 403 saying why; with keys any name (the
 * page has no key). The MCP SDK's own client, on 127.0.0.1 and on localhost, is answered as before.
 */
import { startMcpHttp, type McpHttpServer } from '@crawlkit/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { call } from './helpers/raw-http.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-mcp-host-check-0123456789';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'rebinding-page', version: '1' } },
};

let stack: ServeStack;
let keyless: McpHttpServer;
let keyed: McpHttpServer;

beforeAll(async () => {
  stack = await startServeStack();
  keyless = await startMcpHttp({ port: 0, crawlkit: stack.ck });
  keyed = await startMcpHttp({ port: 0, crawlkit: stack.ck, apiKeys: [KEY] });
}, 60_000);

afterAll(async () => {
  await keyless?.close();
  await keyed?.close();
  await stack?.close();
});

/** An `initialize` POST to `url` naming `host` as its `Host` (which `fetch` does not let a caller set). */
function initializeWithHost(url: string, host: string, key?: string) {
  return call(url, 'POST', '/mcp', {
    body: INITIALIZE,
    headers: {
      host,
      accept: 'application/json, text/event-stream',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
  });
}

describe('crawlkit mcp --http and the Host header', () => {
  it('keyless: refuses a rebound name before anything runs, saying why and what to use', async () => {
    const { port } = new URL(keyless.url);
    for (const host of [`attacker.example:${port}`, `127.0.0.1.attacker.example:${port}`, 'localhost.evil.example']) {
      const answer = await initializeWithHost(keyless.url, host);
      expect(answer.status, host).toBe(403);
      const error = answer.body.error as { message: string };
      expect(error.message, host).toContain(`Requests for the host ${host} are not allowed`);
      expect(error.message).toContain('DNS rebinding');
      expect(error.message).not.toContain('--public-url');
    }
    // A tool call under a rebound name reaches no tool: the page the scrape names is never fetched.
    const scrape = await call(keyless.url, 'POST', '/mcp', {
      body: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'firecrawl_scrape', arguments: { url: stack.page('/') } },
      },
      headers: { host: `attacker.example:${port}`, accept: 'application/json, text/event-stream' },
    });
    expect(scrape.status).toBe(403);
  });

  it('keyless: the MCP SDK client on 127.0.0.1, localhost and a loopback Host is answered', async () => {
    const { port } = new URL(keyless.url);
    for (const url of [keyless.url, `http://localhost:${port}/mcp`]) {
      const client = new Client({ name: 'host-check', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        expect((await client.listTools()).tools.length, url).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
    }
    expect((await initializeWithHost(keyless.url, `[::1]:${port}`)).status).toBe(200);
  });

  it('with keys: any name is answered with the key (a rebinding page has none), refused without it', async () => {
    const host = `crawl.internal.example:${new URL(keyed.url).port}`;
    expect((await initializeWithHost(keyed.url, host, KEY)).status).toBe(200);
    expect((await initializeWithHost(keyed.url, host)).status).toBe(401);
  });
});
