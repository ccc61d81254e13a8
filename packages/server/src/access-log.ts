import type { Logger } from 'crawlkit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { HEALTH_PATHS } from './health-routes.js';
import { errorCodeOf } from './respond.js';

/** Longest path written: a client can send any, and a log line is not a place for megabytes. */
const MAX_PATH = 200;
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
  app.addHook('onResponse', async (request, reply) => {
    const raw = request.url.split('?', 1)[0] ?? '';
    const path = raw.length > MAX_PATH ? `${raw.slice(0, MAX_PATH)}…` : raw;
    const tenant = tenantOf(request);
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime);
    const code = status >= 500 ? (errorCodeOf(reply) ?? 'UNKNOWN_ERROR') : undefined;
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
