import { describe, expect, it } from 'vitest';

import { withinBudget } from './within-budget.js';

/** How many timers hold this process now. */
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('withinBudget', () => {
  it("answers work's answer when it comes first, and clears its timer", async () => {
    const before = timers();
    const answer = withinBudget(Promise.resolve(7), 60_000, () => -1);
    expect(timers()).toBe(before + 1);
    await expect(answer).resolves.toBe(7);
    expect(timers()).toBe(before);
  });

  it("passes work's rejection on, and clears its timer", async () => {
    const before = timers();
    await expect(withinBudget(Promise.reject(new Error('no')), 60_000, () => -1)).rejects.toThrow('no');
    expect(timers()).toBe(before);
  });

  it("answers late's value once the time has passed without an answer", async () => {
    const never = new Promise<number>(() => undefined);
    let asked = 0;
    const answer = await withinBudget(never, 5, () => {
      asked++;
      return Number.NaN;
    });
    expect(answer).toBeNaN();
    expect(asked).toBe(1);
  });

  it('rejects with what late throws, and never asks late when work came first', async () => {
    const never = new Promise<number>(() => undefined);
    await expect(
      withinBudget(never, 0, () => {
        throw new RangeError('out of time');
      }),
    ).rejects.toThrow(RangeError);
    let asked = false;
    await withinBudget(Promise.resolve(1), 0, () => (asked = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toBe(false);
  });

  it('sets no timer for a time that is not finite', async () => {
    const before = timers();
    const answer = withinBudget(Promise.resolve('done'), Number.POSITIVE_INFINITY, () => 'late');
    expect(timers()).toBe(before);
    await expect(answer).resolves.toBe('done');
  });
});
