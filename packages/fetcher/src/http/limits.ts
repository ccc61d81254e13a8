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

/** The limits with their defaults filled in (`httpLimitsSchema` checked the values). */
export function resolveLimits(limits: Partial<HttpLimits> = {}): HttpLimits {
  const resolved: HttpLimits = { ...DEFAULT_HTTP_LIMITS };
  for (const [key, value] of Object.entries(limits) as [keyof HttpLimits, number | undefined][]) {
    if (value !== undefined) resolved[key] = value;
  }
  return resolved;
}
