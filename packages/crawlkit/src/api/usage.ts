import type {
  ConcurrencyCheckResponse,
  CreditUsageResponse,
  QueueStatusResponse,
  TokenUsageResponse,
} from '../v2/types.js';

/** Credits of a `map` call (reference §15: 1 per call). */
export const MAP_CREDITS = 1;

/**
 * The nominal plan of an engine without a limit: a round number above what was used, so that a client shows the
 * amount used (`plan - remaining`) and a comfortable remainder. The hosted API's plan is a real budget; locally
 * nothing is charged. 1,000,000,000, or the next billion once that is used.
 */
export function nominalPlan(used: number): number {
  const BILLION = 1_000_000_000;
  return Math.max(BILLION, Math.ceil((used + 1) / BILLION) * BILLION);
}

/**
 * `GET /v2/team/credit-usage` of an engine: credits accounted for so far, against a `limit` (a server's
 * `creditLimit`), else against the nominal plan.
 */
export function creditUsage(used: number, limit?: number): CreditUsageResponse {
  const plan = limit ?? nominalPlan(used);
  return {
    success: true,
    data: {
      remainingCredits: Math.max(0, plan - used),
      planCredits: plan,
      billingPeriodStart: null,
      billingPeriodEnd: null,
      creditsUsed: used,
    },
  };
}

/** `GET /v2/team/token-usage`: the model tokens the engine's pages used, against the nominal plan. */
export function tokenUsage(used: number): TokenUsageResponse {
  const plan = nominalPlan(used);
  return {
    success: true,
    data: {
      remainingTokens: plan - used,
      planTokens: plan,
      billingPeriodStart: null,
      billingPeriodEnd: null,
      tokensUsed: used,
    },
  };
}

/** What the engine's scrape slots hold right now. */
export interface SlotState {
  running: number;
  waiting: number;
  concurrency: number;
  lastSuccess: number | undefined;
}

/** `GET /v2/team/queue-status`: scrapes running in the engine's slots and waiting for one. */
export function queueStatus(slots: SlotState): QueueStatusResponse {
  return {
    success: true,
    jobsInQueue: slots.running + slots.waiting,
    activeJobsInQueue: slots.running,
    waitingJobsInQueue: slots.waiting,
    maxConcurrency: slots.concurrency,
    mostRecentSuccess: slots.lastSuccess === undefined ? null : new Date(slots.lastSuccess).toISOString(),
  };
}

/** `GET /v2/concurrency-check`: scrapes running, and the engine's `concurrency`. */
export function concurrencyCheck(slots: SlotState): ConcurrencyCheckResponse {
  return { success: true, concurrency: slots.running, maxConcurrency: slots.concurrency };
}
