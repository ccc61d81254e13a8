import type { Logger } from 'crawlkit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { HEALTH_PATHS } from './health-routes.js';

/** Longest path written: a client can send any, and a log line is not a place for megabytes. */
const MAX_PATH = 200;

/**
 * One `info` line per answered request, when it is answered: `POST /v2/crawl 200 12 ms 10.0.0.7 key-1a2b…` (method,
 * path without its query, status, time, the client's address (its `X-Forwarded-For` one under `trustProxy`), and the
 * tenant: a hash of the API key, never the key). Probes that succeed are
 * `debug` lines, so a balancer polling every second does not fill the log. Nothing of the body or the headers is
 * written: they carry page headers, cookies and keys.
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
    const took = Math.round(reply.elapsedTime);
    const line = `${request.method} ${path} ${reply.statusCode} ${took} ms ${request.ip}${tenant ? ` ${tenant}` : ''}`;
    const probe = HEALTH_PATHS.has(request.routeOptions.url ?? '') && reply.statusCode < 400;
    if (probe) logger.debug(line);
    else logger.info(line);
  });
}
