import { clearTimeout, setTimeout } from 'node:timers';

/**
 * `work`'s answer, or `late()`'s once `ms` have passed without one (what `late` throws is thrown): a wait that must
 * not outlast its time. The timer is cleared either way, so it never holds the process after; with `ms` not finite
 * (`Infinity`) there is none. `work` goes on when it loses: whoever needs it stopped does so when `late` answers.
 */
export async function withinBudget<T, L = T>(work: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  if (!Number.isFinite(ms)) return work;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms)))).then(late);
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
