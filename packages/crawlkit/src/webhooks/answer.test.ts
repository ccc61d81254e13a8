import { describe, expect, it } from 'vitest';

import { resolveOptions } from '../options.js';
import { retryDelay } from './answer.js';

describe('webhook back-off with the default options', () => {
  const { webhooks } = resolveOptions({});
  /** When each attempt of one event is sent, in seconds from its first. */
  const schedule = () => {
    const at = [0];
    for (let attempts = 1; attempts < webhooks.maxAttempts; attempts++) {
      at.push(at.at(-1)! + retryDelay(attempts, undefined, webhooks) / 1000);
    }
    return at;
  };

  it('reaches a receiver back from a 5-minute outage within 30 s, not minutes later', () => {
    const next = schedule().find((t) => t >= 300)!;
    expect(next - 300).toBeLessThanOrEqual(30);
  });

  it('gives an event up after the same 511 s as before the cap (1 s doubling to 256 s, 10 attempts)', () => {
    expect(schedule().at(-1)).toBe(511);
  });

  it("waits a receiver's Retry-After when longer than the back-off, up to maxRetryDelayMs", () => {
    expect(retryDelay(1, 5_000, webhooks)).toBe(5_000);
    expect(retryDelay(1, 3_600_000, webhooks)).toBe(webhooks.maxRetryDelayMs);
  });
});
