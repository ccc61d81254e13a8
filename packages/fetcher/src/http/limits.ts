import { inspect } from 'node:util';

import type { HttpLimits } from './types.js';

/** Defaults of every HTTP limit (documented on `HttpLimits`). */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  maxBodyBytes: 50 * 1024 * 1024,
  maxDecompressedBytes: 100 * 1024 * 1024,
  maxCompressionRatio: 200,
  maxRedirects: 20,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  idleTimeoutMs: 15_000,
  lowSpeedBytesPerSec: 500,
  lowSpeedWindowMs: 10_000,
  maxHeaderBytes: 64 * 1024,
});

/** Decompressed size below which the compression ratio is not checked, in bytes. */
export const RATIO_CHECK_FLOOR_BYTES = 1024 * 1024;

/** Limits that may be 0 (0 disables them). */
const ZERO_ALLOWED = new Set<keyof HttpLimits>(['maxRedirects', 'lowSpeedBytesPerSec']);

/** Fills in defaults and validates every field. */
export function resolveLimits(limits: Partial<HttpLimits> = {}): HttpLimits {
  const resolved: HttpLimits = { ...DEFAULT_HTTP_LIMITS };
  for (const [key, value] of Object.entries(limits) as [keyof HttpLimits, unknown][]) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_HTTP_LIMITS)) throw new TypeError(`Unknown HTTP limit \`${key}\``);
    const min = ZERO_ALLOWED.has(key) ? 0 : 1;
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value < min ||
      (key !== 'maxCompressionRatio' && !Number.isInteger(value))
    ) {
      throw new TypeError(
        `Expected \`limits.${key}\` to be ${min === 0 ? 'an integer >= 0' : 'a positive integer'}, got \`${inspect(value)}\` (${typeof value})`,
      );
    }
    resolved[key] = value;
  }
  return resolved;
}
