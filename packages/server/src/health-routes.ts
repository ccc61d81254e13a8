import type { Crawlkit } from 'crawlkit';
import type { FastifyInstance } from 'fastify';

/** The probes of a load balancer, Docker's `HEALTHCHECK` or Kubernetes: answered without a key. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/health', '/ready']);

const MIB = 1024 * 1024;

/**
 * `GET /health` (liveness: the process answers HTTP) and `GET /ready` (readiness: its store answers a lookup, SQLite
 * or Redis, and has `readyMinFreeMb` of room left), each `200 { success: true, status }` or `503` with what is wrong.
 * Neither says anything a stranger could use: no version, no counts, no paths. Once `close()` is called, Fastify
 * answers every request 503, probes included.
 */
export function registerHealthRoutes(app: FastifyInstance, crawlkit: Crawlkit, readyMinFreeMb: number): void {
  app.get('/health', async (_request, reply) => reply.code(200).send({ success: true, status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const answer = await crawlkit.checkReady();
    const unavailable = (code: string | undefined, error: string) =>
      reply.code(503).send({ success: false, status: 'unavailable', code, error: `Not ready: ${error}` });
    if (!answer.success) return unavailable(answer.code, answer.error);
    if (answer.freeBytes !== undefined && answer.freeBytes < readyMinFreeMb * MIB) {
      return unavailable(
        'STORE_FULL',
        `the store has less than ${readyMinFreeMb} MiB of room left (the disk of its file, or Redis's maxmemory), ` +
          'and every page would fail to be stored. Free space, or lower readyMinFreeMb (--ready-min-free; 0: no check).',
      );
    }
    return reply.code(200).send({ success: true, status: 'ready' });
  });
}
