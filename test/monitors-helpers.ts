/** What the monitor tests share: an answer that must have succeeded, and a check once its crawls have ended. */
import type { Crawlkit, MonitorCheckDetailView } from 'crawlkit';

import { until } from './helpers-batch.ts';

export function ok<T extends { success: boolean }>(answer: T): Extract<T, { success: true }> {
  if (!answer.success) throw new Error(JSON.stringify(answer));
  return answer as Extract<T, { success: true }>;
}

/** The check once its crawls have ended, with all its pages. */
export async function closedCheck(ck: Crawlkit, id: string, checkId: string): Promise<MonitorCheckDetailView> {
  let detail: MonitorCheckDetailView | undefined;
  await until(async () => {
    detail = ok(await ck.monitors.check(id, checkId, { limit: 1000 })).data;
    return detail.status !== 'running';
  }, 30_000);
  return detail!;
}
