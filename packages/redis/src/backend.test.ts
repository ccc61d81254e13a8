import { describe, expect, it } from 'vitest';

import { redis } from './index.js';

describe('redis() options', () => {
  it.each([
    [{ taskLockMs: 0 }, /`taskLockMs` to be a positive integer, got `0`/],
    [{ stalledCheckMs: 1.5 }, /`stalledCheckMs` to be a non-negative integer, got `1.5` \(number\)/],
    [{ taskRetryDelayMs: 0 }, /`taskRetryDelayMs` to be a positive integer, got `0`/],
    [{ connectTimeoutMs: -1 }, /`connectTimeoutMs` to be a non-negative integer/],
  ])('refuses %o with INVALID_OPTION, before connecting', (options, message) => {
    expect(() => redis(options)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringMatching(message) }),
    );
  });

  it('takes positive integers', () => {
    expect(redis({ taskLockMs: 1, stalledCheckMs: 1, taskRetryDelayMs: 1, connectTimeoutMs: 1 }).kind).toBe('redis');
  });
});
