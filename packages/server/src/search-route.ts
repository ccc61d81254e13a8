import type { SearchRequestInput } from 'crawlkit';
import type { FastifyInstance } from 'fastify';

import { send } from './respond.js';
import type { RouteContext } from './routes.js';

/**
 * `POST /v2/search`: the engine's search (its index of stored pages, and the web provider it was given), admitted
 * like a scrape: one of the synchronous requests in progress; the engine reserves its credits under the limit.
 */
export function registerSearchRoute(app: FastifyInstance, ctx: RouteContext): void {
  const { crawlkit: ck, admission } = ctx;
  app.post<{ Body: SearchRequestInput }>('/v2/search', async (request, reply) => {
    const call = ctx.call(request, reply);
    return send(reply, await admission.queued(() => ck.search(request.body, call), call.tenant));
  });
}
