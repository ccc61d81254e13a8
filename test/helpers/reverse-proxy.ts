/**
 * A reverse proxy on 127.0.0.1 in front of a server, as an operator puts nginx, Caddy or Traefik in front of
 * `crawlkit serve`: it serves the API under a path, rewrites `Host` to the upstream's name as nginx's `proxy_pass` does
 * by default, and may add `X-Forwarded-*` headers. Plain HTTP, WebSocket upgrades not forwarded.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

import { listenOnLoopback, type LoopbackServer } from '../../fixtures/loopback-listen.ts';

/** `url` is `http://127.0.0.1:<port>`; the API is at `url + prefix`. */
export type ReverseProxy = LoopbackServer;

export interface ReverseProxyOptions {
  /** The server behind, `http://127.0.0.1:<port>` (read at each request: it may start after the proxy). */
  target: () => string;
  /** The path the API is served under, e.g. `/crawlkit`. @default '' */
  prefix?: string;
  /** Whether the prefix is removed before forwarding (nginx `proxy_pass http://up/;`) or kept. @default true */
  strip?: boolean;
  /** The `Host` sent upstream: the upstream's name, as nginx's default `$proxy_host` (a compose service name). */
  upstreamHost: string;
  /** Headers added to each forwarded request (`x-forwarded-proto`, `x-forwarded-host`). @default {} */
  forwarded?: (incoming: IncomingHttpHeaders) => Record<string, string>;
}

export async function startReverseProxy(options: ReverseProxyOptions): Promise<ReverseProxy> {
  const prefix = options.prefix ?? '';
  const server = createServer((req, res) => {
    const target = new URL(options.target());
    const url = req.url ?? '/';
    if (!url.startsWith(`${prefix}/`)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not proxied');
      return;
    }
    const path = options.strip === false ? url : url.slice(prefix.length);
    const headers = { ...req.headers, host: options.upstreamHost, ...options.forwarded?.(req.headers) };
    const upstream = httpRequest(
      { hostname: target.hostname, port: target.port, path, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end('bad gateway'));
    req.pipe(upstream);
  });
  return listenOnLoopback(server);
}
