import { randomUUID } from 'node:crypto';

/**
 * A fresh UUID v7 (48-bit millisecond timestamp, then 74 random bits), built on `crypto.randomUUID()`, which draws
 * from a pooled buffer: the `uuid` package's v7 asks the OS for 16 new bytes on every call, which was the largest
 * single cost of a cache hit. The random part is the v4's (its version nibble replaced by 7; the variant bits are
 * the same in both versions).
 */
export function scrapeId(now: number = Date.now()): string {
  return uuidV7(now);
}

/**
 * A UUID v7 of `ms` on `crypto.randomUUID()`'s random bits; `counter` (12 bits) takes the place of the first random
 * ones, for ids that must sort in the order they were made within a millisecond.
 */
export function uuidV7(ms: number, counter?: number): string {
  const random = randomUUID();
  const time = ms.toString(16).padStart(12, '0');
  const rest = counter === undefined ? random.slice(15) : `${counter.toString(16).padStart(3, '0')}${random.slice(18)}`;
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${rest}`;
}

/** The millisecond of the last id made in this process, and its counter within that millisecond. */
let lastMs = -1;
let counter = 0;

/**
 * A new job's id: a UUID v7 (48-bit millisecond timestamp, a 12-bit counter, then the random bits of a v4) that sorts
 * after every id this process made before it, as jobs are listed (`created_at DESC, id DESC`); a millisecond's 4,097th
 * id borrows the next millisecond, as RFC 9562's counter method does. Built on `crypto.randomUUID()`, which draws from
 * a pooled buffer: the `uuid` package's v7 asks WebCrypto for its bytes, whose modules a new process loaded for that
 * one call (about half a millisecond of a cron run's crawl).
 */
export function newJobId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  return uuidV7(lastMs, counter);
}
