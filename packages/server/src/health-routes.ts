import type { Crawlkit } from 'crawlkit';
import type { FastifyInstance } from 'fastify';

/** The probes of a load balancer, Docker's `HEALTHCHECK` or Kubernetes: answered without a key. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/health', '/ready']);

/** No job has this id: looking it up is a round trip to the store that reads nothing. */
const NO_JOB = '00000000-0000-7000-8000-000000000000';

/**
 * `GET /health` (liveness: the process answers HTTP) and `GET /ready` (readiness: its store answers a lookup, SQLite
 * or Redis), each `200 { success: true, status }` or `503` with what is wrong. Neither says anything a stranger could
 * use: no version, no counts, no paths. Once `close()` is called, Fastify answers every request 503, probes included.
 */
export function registerHealthRoutes(app: FastifyInstance, crawlkit: Crawlkit): void {
  app.get('/health', async (_request, reply) => reply.code(200).send({ success: true, status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const answer = await crawlkit.getCrawlStatus(NO_JOB);
    if (answer.success || answer.code === 'JOB_NOT_FOUND') {
      return reply.code(200).send({ success: true, status: 'ready' });
    }
    return reply.code(503).send({
      success: false,
      status: 'unavailable',
      code: answer.code,
      error: `Not ready: ${answer.error}`,
    });
  });
}
