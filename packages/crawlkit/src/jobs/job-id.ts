import { uuidV7 } from '../scrape/scrape-id.js';

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
