import type { IncomingMessage } from 'node:http';

import type { Logger } from 'crawlkit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { HEALTH_PATHS } from './health-routes.js';
import { errorCodeOf } from './respond.js';

/** The status an access line gives a request whose client closed the connection before the answer (nginx's). */
const CLIENT_CLOSED = 499;
const CLIENT_CLOSED_TEXT = 'client closed the connection';
const SERVER_CLOSED_TEXT = 'server closed the connection';

/** Requests whose connection the server itself closed before a route answered: the status it gave, and why. */
const serverClosed = new WeakMap<IncomingMessage, { status: number; why: string }>();

/**
 * Marks `request` as closed by the server (call it before destroying the socket): its access line gives `status` and
 * says `server closed the connection (why)`, where it would have said 499 and blamed the client.
 */
export function markServerClosed(request: IncomingMessage, status: number, why: string): void {
  serverClosed.set(request, { status, why });
}

/** Longest path written: a client can send any, and a log line is not a place for megabytes. */
const MAX_PATH = 200;
/**
 * One line per answered request, when it is answered: `POST /v2/crawl 200 12 ms 10.0.0.7 key-1a2b…` (method, path
 * without its query, status, time, the client's address (its `X-Forwarded-For` one under `trustProxy`), and the
 * tenant: a hash of the API key, never the key), with the request's fields as the line's last value
 * (`{ method, path, status, ms, ip, tenant?, code? }`). Levels: `info`; a 5xx answer `error` with its v2 error code
 * last on the line (`… 500 3 ms 127.0.0.1 STORE_IO`), a 503 (store full, stopping: "not now") `warn`; probes
 * `debug`, whatever they answer, so a balancer polling every second does not fill the log (`/ready` logs a change of
 * its answer once: `readinessLog`). A request whose client closed the connection before its answer gets one line when
 * it went away, at `info`, status 499 (nginx's "client closed request") and the time it had run:
 * `POST /v2/scrape 499 512 ms 127.0.0.1 key-1a2b… client closed the connection` (fields: `closed: 'client'`). A
 * connection the server closed itself before a route answered (`markServerClosed`: a body past `--body-timeout` no
 * reader was told of) says so with the status it gave instead: `POST /v2/parse 408 1501 ms 127.0.0.1 server closed
 * the connection (the body did not arrive within 1500 ms)` (fields: `closed: 'server'`); so does a request Node's
 * parser refused (`refusedRequestLine`). Nothing of the body or the headers is written: they carry page headers,
 * cookies and keys.
 */
export function registerAccessLog(
  app: FastifyInstance,
  logger: Logger,
  tenantOf: (request: FastifyRequest) => string | undefined,
): void {
  const closed = new WeakSet<FastifyRequest>();
  const describe = (request: FastifyRequest, status: number, ms: number, code?: string, ip = request.ip) => {
    const raw = request.url.split('?', 1)[0] ?? '';
    const path = raw.length > MAX_PATH ? `${raw.slice(0, MAX_PATH)}…` : raw;
    const tenant = tenantOf(request);
    const line =
      `${request.method} ${path} ${status} ${ms} ms ${ip}${tenant ? ` ${tenant}` : ''}` + `${code ? ` ${code}` : ''}`;
    const fields = {
      method: request.method,
      path,
      status,
      ms,
      ip,
      ...(tenant ? { tenant } : {}),
      ...(code ? { code } : {}),
    };
    return { line, fields };
  };
  app.addHook('onResponse', async (request, reply) => {
    if (closed.has(request)) return;
    const status = reply.statusCode;
    const code = status >= 500 ? (errorCodeOf(reply) ?? 'UNKNOWN_ERROR') : undefined;
    const { line, fields } = describe(request, status, Math.round(reply.elapsedTime), code);
    if (HEALTH_PATHS.has(request.routeOptions.url ?? '')) logger.debug(line, fields);
    else if (status === 503) logger.warn(line, fields);
    else if (status >= 500) logger.error(line, fields);
    else logger.info(line, fields);
  });
  // The client went away before the answer (its work is stopped by the call's signal): said, not silent. Read on the
  // response's close, as the call's signal is: Fastify's onRequestAbort misses a client that sent its whole body.
  app.addHook('onRequest', async (request, reply) => {
    const ip = request.ip; // read now: the socket's address is gone once it closed
    reply.raw.once('close', () => {
      if (reply.raw.writableEnded) return;
      closed.add(request);
      const byServer = serverClosed.get(request.raw);
      const status = byServer?.status ?? CLIENT_CLOSED;
      const { line, fields } = describe(request, status, Math.round(reply.elapsedTime), undefined, ip);
      const said: [string, Record<string, unknown>] = byServer
        ? [`${line} ${SERVER_CLOSED_TEXT} (${byServer.why})`, { ...fields, closed: 'server' }]
        : [`${line} ${CLIENT_CLOSED_TEXT}`, { ...fields, closed: 'client' }];
      if (HEALTH_PATHS.has(request.routeOptions.url ?? '')) logger.debug(...said);
      else logger.info(...said);
    });
  });
}

/**
 * The access line of a request Node's HTTP parser refused before any route saw it (headers too large, headers too
 * slow, not HTTP), answered `status` with the v2 error `code` and closed by the server: `GET /v2/crawl/… 431 -
 * 127.0.0.1 server closed the connection (REQUEST_HEADERS_TOO_LARGE)`. The method and path are read from the bytes
 * the parser had (`-` when it had no request line); the time is not known (`-`).
 */
export function refusedRequestLine(
  rawPacket: Buffer | undefined,
  ip: string | undefined,
  status: number,
  code: string,
): { line: string; fields: Record<string, unknown> } {
  const head = rawPacket?.subarray(0, 4096).toString('latin1') ?? '';
  const [, method = '-', target = '-'] = /^([A-Z]{1,20}) (\S+) HTTP\/\d/.exec(head) ?? [];
  const raw = target.split('?', 1)[0] ?? '-';
  const path = raw.length > MAX_PATH ? `${raw.slice(0, MAX_PATH)}…` : raw;
  const where = ip ?? '-';
  return {
    line: `${method} ${path} ${status} - ${where} ${SERVER_CLOSED_TEXT} (${code})`,
    fields: { method, path, status, ip: where, code, closed: 'server' },
  };
}
