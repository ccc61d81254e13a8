import type { CallOptions, Crawlkit, CreditUsageResponse } from 'crawlkit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { Admission } from './admission.js';
import { send } from './respond.js';

/**
 * The team endpoints with their local meaning (v2 and v1 paths), for the request's API key when each key is a tenant
 * (its team), else for the whole server: credit and token usage of this engine since it started (against the
 * server's `creditLimit`, or a nominal plan of a billion so that clients show what was used), one historical period
 * for the same, the scrapes in the engine's slots as queue status and concurrency. `?byApiKey=true` answers the same
 * single period (a key is its own team).
 */
export function registerTeamRoutes(
  app: FastifyInstance,
  ck: Crawlkit,
  admission: Admission,
  tenantOf: (request: FastifyRequest) => string | undefined,
): void {
  const startedAt = new Date().toISOString();
  const as = (request: FastifyRequest): CallOptions => {
    const tenant = tenantOf(request);
    return tenant !== undefined ? { tenant } : {};
  };

  const credits = (request: FastifyRequest): Promise<CreditUsageResponse> => admission.creditUsage(as(request));
  const period = (used: Record<string, number>) => ({
    success: true,
    periods: [{ startDate: startedAt, endDate: null, ...used }],
  });

  app.get('/v2/team/credit-usage', async (request, reply) => send(reply, await credits(request)));
  app.get('/v2/team/token-usage', async (request, reply) => send(reply, ck.getTokenUsage(as(request))));
  for (const version of ['v1', 'v2']) {
    app.get(`/${version}/team/credit-usage/historical`, async (request, reply) =>
      send(reply, period({ creditsUsed: ck.getCreditUsage(as(request)).data.creditsUsed })),
    );
    app.get(`/${version}/team/token-usage/historical`, async (request, reply) =>
      send(reply, period({ tokensUsed: ck.getTokenUsage(as(request)).data.tokensUsed })),
    );
    app.get(`/${version}/team/queue-status`, async (request, reply) => send(reply, ck.getQueueStatus(as(request))));
    app.get(`/${version}/concurrency-check`, async (request, reply) => send(reply, ck.getConcurrency(as(request))));
  }

  // v1 answers usage in snake_case.
  app.get('/v1/team/credit-usage', async (request, reply) => {
    const { data } = await credits(request);
    return send(reply, {
      success: true,
      data: {
        remaining_credits: data.remainingCredits,
        plan_credits: data.planCredits,
        billing_period_start: data.billingPeriodStart,
        billing_period_end: data.billingPeriodEnd,
      },
    });
  });
  app.get('/v1/team/token-usage', async (request, reply) => {
    const { data } = ck.getTokenUsage(as(request));
    return send(reply, {
      success: true,
      data: {
        remaining_tokens: data.remainingTokens,
        plan_tokens: data.planTokens,
        billing_period_start: data.billingPeriodStart,
        billing_period_end: data.billingPeriodEnd,
      },
    });
  });
}
