/**
 * The tools over MCP's streamable HTTP at `/mcp`, under the rules of `crawlkit serve`: the same API keys
 * (`Authorization: Bearer <key>`; a host other than loopback needs one), body limit, queue and credit limits
 * (`@crawlkit/server`'s own checks), its `cors` rule for requests from web pages, and (keyless) its `Host` check
 * against DNS rebinding. Stateless: each POST is answered by a fresh server and transport, so any number of clients
 * can call at once and none holds a session.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  Admission,
  ApiKeys,
  corsVerdict,
  hostAllowed,
  hostRefusal,
  resolveServerOptions,
  type ServerOptions,
} from '@crawlkit/server';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { HttpCancels } from './http-cancels.js';
import { InFlight } from './in-flight.js';
import { toolServer, type ToolAnswers } from './mcp-server.js';
import { answersOf, parseFilesOf } from './stdio.js';

/** The server's options that apply to the MCP endpoint (it answers no job URLs: no `publicUrl` or `trustProxy`). */
export type McpHttpOptions = Omit<
  ServerOptions,
  'closeTimeoutMs' | 'logger' | 'bodyTimeoutMs' | 'publicUrl' | 'trustProxy'
> &
  ToolAnswers & {
    /**
     * The folder `firecrawl_parse` reads files under (relative paths against it), none out of it. A client over HTTP
     * may be another machine's: without a root the tool is not offered (it would read any file of this one).
     * @default none: no firecrawl_parse
     */
    parseRoot?: string;
  };

export interface McpHttpServer {
  /** `http://host:port/mcp` */
  url: string;
  close(): Promise<void>;
}

/** A JSON-RPC error answer outside any call (bad path, key, body). */
function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const { maxAnswerChars, crawlWaitMs, parseRoot, ...serverOptions } = options;
  const resolved = resolveServerOptions(serverOptions);
  const answers = {
    ...answersOf({
      ...(maxAnswerChars !== undefined ? { maxAnswerChars } : {}),
      ...(crawlWaitMs !== undefined ? { crawlWaitMs } : {}),
    }),
    ...(parseRoot !== undefined ? { parseFiles: parseFilesOf(parseRoot, resolved.parseFileLimit) } : {}),
  };
  const keys = new ApiKeys(resolved.apiKeys, { share: resolved.keysShareJobs, source: resolved.apiKeysSource });
  const { crawlkit, queueLimit, creditLimit, readyMinFreeMb } = resolved;
  const admission = new Admission(crawlkit, queueLimit, creditLimit, readyMinFreeMb);
  const inFlight = new InFlight();
  const cancels = new HttpCancels();

  const keyless = resolved.apiKeys.length === 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Keyless (loopback only): a web page that rebound its name to 127.0.0.1 is refused by its Host, as serve does.
    if (keyless && !hostAllowed(req.headers.host, undefined)) return refuse(res, 403, hostRefusal(req.headers.host));
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return refuse(res, 404, `No MCP endpoint at ${path}: use /mcp.`);
    // A web page must not drive the tools from a visitor's browser (the server's `cors` rule, loopback by default);
    // browser-based clients (the MCP inspector) send a preflight first, answered before auth as serve answers it.
    const cors = corsVerdict(req, resolved.cors);
    if (cors && !cors.allowed) {
      return refuse(res, 403, `Requests from the web origin ${cors.origin} are not allowed (the cors option).`);
    }
    if (cors) for (const [name, value] of Object.entries(cors.headers)) res.setHeader(name, value);
    if (cors?.preflight) {
      res.writeHead(204).end();
      return;
    }
    const auth = keys.checkAuthorization(req.headers.authorization);
    if (!auth.ok) return refuse(res, 401, auth.error);
    if (req.method !== 'POST') return refuse(res, 405, 'This MCP server is stateless: send requests with POST.');
    const raw = await readBody(req, resolved.bodyLimit);
    if (raw === 'too large') return refuse(res, 413, `The body is larger than ${resolved.bodyLimit} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return refuse(res, 400, 'The body is not JSON.');
    }
    // Each key is a tenant (its jobs are its own) unless the keys share their jobs, as in `crawlkit serve`.
    const server = toolServer(
      resolved.crawlkit,
      admission,
      {
        ...(auth.tenant !== undefined ? { tenant: auth.tenant } : {}),
        ...(resolved.creditLimit !== undefined ? { creditLimit: resolved.creditLimit } : {}),
      },
      answers,
      inFlight,
    );
    // A call that asks for progress is answered as an event stream, which carries its progress notifications before
    // the result; every other request as plain JSON.
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !asksForProgress(body),
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    // A call its client cancels (by a notification in a POST of its own) is closed as a connection closed is.
    cancels.take(req, res, body, auth.tenant);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, error instanceof Error ? error.message : String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(resolved.port, resolved.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  return {
    // Listening on every interface: the address to give a client on this machine is loopback's.
    url: `http://${resolved.host === '0.0.0.0' || resolved.host === '::' ? '127.0.0.1' : host}:${port}/mcp`,
    // Each call's connection closed aborts it; each then ends its work (a crawl call cancels its crawl) before the
    // engine it uses may close.
    close: async () => {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await inFlight.settled();
    },
  };
}

/** Whether a JSON-RPC message (or batch) carries a `progressToken`: its sender takes progress notifications. */
function asksForProgress(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}
