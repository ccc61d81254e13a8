import { randomUUID } from 'node:crypto';

/**
 * A fresh UUID v7 (48-bit millisecond timestamp, then 74 random bits), built on `crypto.randomUUID()`, which draws
 * from a pooled buffer: the `uuid` package's v7 asks the OS for 16 new bytes on every call, which was the largest
 * single cost of a cache hit. The random part is the v4's (its version nibble replaced by 7; the variant bits are
 * the same in both versions).
 */
export function scrapeId(now: number = Date.now()): string {
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
