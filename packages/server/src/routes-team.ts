import type { Crawlkit, CreditUsageResponse } from 'crawlkit';
import type { FastifyInstance } from 'fastify';

import type { Admission } from './admission.js';
import { send } from './respond.js';

/**
 * The team endpoints with their local meaning (v2 and v1 paths): credit and token usage of this engine since it
 * started (against the server's `creditLimit`, or a nominal plan of a billion so that clients show what was used),
 * one historical period for the same, the engine's scrape slots as queue status and concurrency. Nothing is
 * attributed per API key: `?byApiKey=true` answers the same single period.
 */
export function registerTeamRoutes(app: FastifyInstance, ck: Crawlkit, admission: Admission): void {
  const startedAt = new Date().toISOString();

  const credits = (): Promise<CreditUsageResponse> => admission.creditUsage();
  const period = (used: Record<string, number>) => ({
    success: true,
    periods: [{ startDate: startedAt, endDate: null, ...used }],
  });

  app.get('/v2/team/credit-usage', async (_request, reply) => send(reply, await credits()));
  app.get('/v2/team/token-usage', async (_request, reply) => send(reply, ck.getTokenUsage()));
  app.get('/v2/team/credit-usage/historical', async (_request, reply) =>
    send(reply, period({ creditsUsed: ck.getCreditUsage().data.creditsUsed })),
  );
  app.get('/v2/team/token-usage/historical', async (_request, reply) =>
    send(reply, period({ tokensUsed: ck.getTokenUsage().data.tokensUsed })),
  );
  for (const version of ['v1', 'v2']) {
    app.get(`/${version}/team/queue-status`, async (_request, reply) => send(reply, ck.getQueueStatus()));
    app.get(`/${version}/concurrency-check`, async (_request, reply) => send(reply, ck.getConcurrency()));
  }

  // v1 answers usage in snake_case.
  app.get('/v1/team/credit-usage', async (_request, reply) => {
    const { data } = await credits();
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
  app.get('/v1/team/token-usage', async (_request, reply) => {
    const { data } = ck.getTokenUsage();
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
  app.get('/v1/team/credit-usage/historical', async (_request, reply) =>
    send(reply, period({ creditsUsed: ck.getCreditUsage().data.creditsUsed })),
  );
  app.get('/v1/team/token-usage/historical', async (_request, reply) =>
    send(reply, period({ tokensUsed: ck.getTokenUsage().data.tokensUsed })),
  );
}
