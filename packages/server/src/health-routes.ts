import type { Crawlkit, ErrorResponse, Logger } from 'crawlkit';
import type { FastifyInstance } from 'fastify';

import { sendError } from './respond.js';
import { storeUnready } from './store-room.js';

/** The probes of a load balancer, Docker's `HEALTHCHECK` or Kubernetes: answered without a key. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/health', '/ready']);

/**
 * `GET /health` (liveness: the process answers HTTP) and `GET /ready` (readiness: its store answers a lookup, SQLite
 * or Redis, can be written (no other process has held its write lock past the busy timeout) and has the room
 * `storeUnready` requires left), each `200 { success: true, status }` or `503` with what is
 * wrong. Neither says anything a stranger could use: no version, no counts, no paths. Once `close()` is called,
 * Fastify answers every request 503, probes included. A change of readiness is logged once (`readinessLog`), not
 * each poll.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  crawlkit: Crawlkit,
  readyMinFreeMb: number | undefined,
  logger: Logger,
): void {
  const note = readinessLog(logger);
  app.get('/health', async (_request, reply) => reply.code(200).send({ success: true, status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const unready = await storeUnready(crawlkit, readyMinFreeMb);
    note(unready);
    if (!unready) return reply.code(200).send({ success: true, status: 'ready' });
    const { code, error } = unready;
    return sendError(reply, 503, code, { success: false, status: 'unavailable', code, error: `Not ready: ${error}` });
  });
}

/**
 * Logs what `/ready` answers when it changes: unready (a `warn` with its code) or ready again (`info`); a balancer
 * polls every few seconds, and one line per poll of the same answer would bury every other line. Ready at start is
 * no line: the server's start line says it.
 */
export function readinessLog(logger: Logger): (unready: ErrorResponse | undefined) => void {
  /** The code of the last unready answer; undefined while ready. */
  let last: string | undefined;
  return (unready) => {
    if (unready?.code === last) return;
    last = unready?.code;
    if (unready) {
      logger.warn(`Not ready (${unready.code}): ${unready.error} /ready answers 503 until this changes.`, {
        path: '/ready',
        code: unready.code,
      });
    } else logger.info('Ready again: /ready answers 200.', { path: '/ready' });
  };
}
