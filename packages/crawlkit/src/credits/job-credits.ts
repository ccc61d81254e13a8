import { storedJobOf } from '../codec/records.js';
import type { JobTasks } from '../jobs/task-execution.js';
import { httpStatusOf } from '../error-codes.js';
import type { ScrapeOutcome } from '../scrape/types.js';
import { jobTenant } from '../jobs/job-tenant.js';
import { pageCreditEstimate } from './estimate.js';
import { creditLedger, insufficientCredits } from './ledger.js';

/**
 * Runs one page of a job with its credits reserved (in its tenant's account) under the job's `creditLimit` (recorded
 * with the job, so that whichever process runs it applies it), settled to what the page cost. A page whose credits do
 * not fit is not fetched: it fails with `INSUFFICIENT_CREDITS`. Without a limit it only runs the page.
 */
export async function chargedJobPage(tasks: JobTasks, run: () => Promise<ScrapeOutcome>): Promise<ScrapeOutcome> {
  const limit = storedJobOf<object>(tasks.job).creditLimit;
  if (limit === undefined) return run();
  const options = tasks.planner.scrapeOptions;
  const estimate = pageCreditEstimate(
    {
      formats: options.formats,
      proxy: options.proxy,
      zeroDataRetention: tasks.planner.zeroDataRetention,
    },
    tasks.ctx.fetcher,
  );
  const ledger = creditLedger(tasks.ctx.store, jobTenant(tasks.job));
  const reservation = await ledger.reserve(estimate, limit);
  if (!reservation) {
    const error = insufficientCredits(limit, await ledger.committed(), estimate);
    const response = { success: false as const, code: error.code, error: error.message };
    return { success: false, error: response, status: httpStatusOf(error.code) };
  }
  let outcome: ScrapeOutcome | undefined;
  try {
    outcome = await run();
    return outcome;
  } finally {
    await reservation.settle(outcome && 'success' in outcome && outcome.success ? outcome.credits : 0);
  }
}
