import type { Logger } from 'crawlkit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { HEALTH_PATHS } from './health-routes.js';

/** Longest path written: a client can send any, and a log line is not a place for megabytes. */
const MAX_PATH = 200;
/** Largest error answer whose v2 `code` is read for its line (an error body is a few hundred bytes). */
const MAX_CODE_READ = 64 * 1024;

/** The v2 error code of a 5xx answer's body (`{ "code": … }`), read before it is sent; undefined for any other. */
function codeOf(payload: unknown): string | undefined {
  if (typeof payload !== 'string' || payload.length > MAX_CODE_READ) return undefined;
  try {
    const body: unknown = JSON.parse(payload);
    const code = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).code : undefined;
    return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line per answered request, when it is answered: `POST /v2/crawl 200 12 ms 10.0.0.7 key-1a2b…` (method, path
 * without its query, status, time, the client's address (its `X-Forwarded-For` one under `trustProxy`), and the
 * tenant: a hash of the API key, never the key), with the request's fields as the line's last value
 * (`{ method, path, status, ms, ip, tenant?, code? }`). Levels: `info`; a 5xx answer `error` with its v2 error code
 * last on the line (`… 500 3 ms 127.0.0.1 STORE_IO`), a 503 (store full, stopping: "not now") `warn`; probes
 * `debug`, whatever they answer, so a balancer polling every second does not fill the log (`/ready` logs a change of
 * its answer once: `readinessLog`). Nothing of the body or the
 * headers is written: they carry page headers, cookies and keys.
 */
export function registerAccessLog(
  app: FastifyInstance,
  logger: Logger,
  tenantOf: (request: FastifyRequest) => string | undefined,
): void {
  const codes = new WeakMap<FastifyRequest, string>();
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 500) {
      const code = codeOf(payload);
      if (code) codes.set(request, code);
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const raw = request.url.split('?', 1)[0] ?? '';
    const path = raw.length > MAX_PATH ? `${raw.slice(0, MAX_PATH)}…` : raw;
    const tenant = tenantOf(request);
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime);
    const code = status >= 500 ? (codes.get(request) ?? 'UNKNOWN_ERROR') : undefined;
    const line =
      `${request.method} ${path} ${status} ${ms} ms ${request.ip}${tenant ? ` ${tenant}` : ''}` +
      `${code ? ` ${code}` : ''}`;
    const fields = {
      method: request.method,
      path,
      status,
      ms,
      ip: request.ip,
      ...(tenant ? { tenant } : {}),
      ...(code ? { code } : {}),
    };
    if (HEALTH_PATHS.has(request.routeOptions.url ?? '')) logger.debug(line, fields);
    else if (status === 503) logger.warn(line, fields);
    else if (status >= 500) logger.error(line, fields);
    else logger.info(line, fields);
  });
}
