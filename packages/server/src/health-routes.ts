import type { Crawlkit } from 'crawlkit';
import type { FastifyInstance } from 'fastify';

import { storeUnready } from './store-room.js';

/** The probes of a load balancer, Docker's `HEALTHCHECK` or Kubernetes: answered without a key. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/health', '/ready']);

/**
 * `GET /health` (liveness: the process answers HTTP) and `GET /ready` (readiness: its store answers a lookup, SQLite
 * or Redis, and has the room `storeUnready` requires left), each `200 { success: true, status }` or `503` with what is
 * wrong. Neither says anything a stranger could use: no version, no counts, no paths. Once `close()` is called,
 * Fastify answers every request 503, probes included.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  crawlkit: Crawlkit,
  readyMinFreeMb: number | undefined,
): void {
  app.get('/health', async (_request, reply) => reply.code(200).send({ success: true, status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const unready = await storeUnready(crawlkit, readyMinFreeMb);
    if (!unready) return reply.code(200).send({ success: true, status: 'ready' });
    const { code, error } = unready;
    return reply.code(503).send({ success: false, status: 'unavailable', code, error: `Not ready: ${error}` });
  });
}
