import type { CreateMonitorInput, UpdateMonitorInput } from 'crawlkit';
import type { FastifyInstance } from 'fastify';

import { send } from './respond.js';
import type { IdParams, RouteContext } from './routes.js';

type Query = Record<string, string | string[] | undefined>;
type MonitorQuery = IdParams & { Querystring: Query };
type CheckParams = { Params: { id: string; checkId: string }; Querystring: Query };

/** The single value of each query parameter (the first of a repeated one). */
function single(query: Query): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[key] = first;
  }
  return out;
}

/**
 * Monitors, in the shape of the 2026 Firecrawl clients (`createMonitor` ... `getMonitorCheck`, `firecrawl monitor`):
 * `POST|GET /v2/monitor`, `GET|PATCH|DELETE /v2/monitor/:id`, `POST /v2/monitor/:id/run`,
 * `GET /v2/monitor/:id/checks` and `GET /v2/monitor/:id/checks/:checkId`.
 */
export function registerMonitorRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const {
    crawlkit: { monitors },
    admission,
  } = ctx;
  app.post<{ Body: CreateMonitorInput }>('/v2/monitor', async (request, reply) => {
    return send(reply, await monitors.create(request.body, ctx.call(request, reply)));
  });
  app.get<{ Querystring: Query }>('/v2/monitor', async (request, reply) => {
    return send(reply, await monitors.list(single(request.query), ctx.call(request, reply)));
  });
  app.get<IdParams>('/v2/monitor/:id', async (request, reply) => {
    return send(reply, await monitors.get(request.params.id, ctx.call(request, reply)));
  });
  app.patch<IdParams & { Body: UpdateMonitorInput }>('/v2/monitor/:id', async (request, reply) => {
    return send(reply, await monitors.update(request.params.id, request.body, ctx.call(request, reply)));
  });
  app.delete<IdParams>('/v2/monitor/:id', async (request, reply) => {
    return send(reply, await monitors.delete(request.params.id, ctx.call(request, reply)));
  });
  app.post<IdParams>('/v2/monitor/:id/run', async (request, reply) => {
    const call = ctx.call(request, reply);
    return send(reply, await admission.withRoom(() => monitors.run(request.params.id, call)));
  });
  app.get<MonitorQuery>('/v2/monitor/:id/checks', async (request, reply) => {
    return send(reply, await monitors.checks(request.params.id, single(request.query), ctx.call(request, reply)));
  });
  app.get<CheckParams>('/v2/monitor/:id/checks/:checkId', async (request, reply) => {
    const { id, checkId } = request.params;
    return send(reply, await monitors.check(id, checkId, single(request.query), ctx.call(request, reply)));
  });
}
