import type { ScheduleRequestInput, UpdateScheduleInput } from 'crawlkit';
import type { FastifyInstance } from 'fastify';

import { send } from './respond.js';
import type { IdParams, RouteContext } from './routes.js';

/**
 * crawlkit's own schedules (issue 41), in the v2 style: `POST /v2/schedule` creates one, `GET /v2/schedule` lists them,
 * `GET`, `PATCH` and `DELETE /v2/schedule/:id` read, change and delete one, `POST /v2/schedule/:id/run` runs one
 * now, `…/pause` and `…/resume` stop and restart its firings. Not upstream's `/v2/monitor`, whose shape the reference
 * does not give.
 */
export function registerScheduleRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { crawlkit: ck, admission } = ctx;
  app.post<{ Body: ScheduleRequestInput }>('/v2/schedule', async (request, reply) => {
    return send(reply, await ck.schedules.create(request.body, ctx.call(request, reply)));
  });
  app.get('/v2/schedule', async (request, reply) => send(reply, await ck.schedules.list(ctx.call(request, reply))));
  app.get<IdParams>('/v2/schedule/:id', async (request, reply) => {
    return send(reply, await ck.schedules.get(request.params.id, ctx.call(request, reply)));
  });
  app.patch<IdParams & { Body: UpdateScheduleInput }>('/v2/schedule/:id', async (request, reply) => {
    return send(reply, await ck.schedules.update(request.params.id, request.body, ctx.call(request, reply)));
  });
  app.post<IdParams>('/v2/schedule/:id/run', async (request, reply) => {
    const call = ctx.call(request, reply);
    return send(reply, await admission.withRoom(() => ck.schedules.run(request.params.id, call)));
  });
  app.post<IdParams>('/v2/schedule/:id/pause', async (request, reply) => {
    return send(reply, await ck.schedules.pause(request.params.id, ctx.call(request, reply)));
  });
  app.post<IdParams>('/v2/schedule/:id/resume', async (request, reply) => {
    return send(reply, await ck.schedules.resume(request.params.id, ctx.call(request, reply)));
  });
  app.delete<IdParams>('/v2/schedule/:id', async (request, reply) => {
    return send(reply, await ck.schedules.delete(request.params.id, ctx.call(request, reply)));
  });
}
