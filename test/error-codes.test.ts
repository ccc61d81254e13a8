import { ActionError, isActionError } from '@crawlkit/actions';
import { ExtractorError, isExtractorError, isMarkdownBudgetError, MarkdownBudgetError } from '@crawlkit/extractor';
import { BrowserError, FetchError, isBrowserError, isFetchError } from '@crawlkit/fetcher';
import { isRedisBackendError, RedisBackendError, type RedisBackendErrorCode } from '@crawlkit/redis';
import { isStoreError, JobNotFoundError, StoreError } from '@crawlkit/store';
import {
  CrawlkitError,
  ERROR_CODES,
  hasCrawlkitCode,
  httpStatusOf,
  isCrawlkitError,
  isErrorCode,
  type CrawlkitErrorCode,
} from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { readmeRows, TABLES } from '../scripts/code-tables.ts';

// The other packages' code unions are checked where ERROR_CODES is written (`satisfies`); the Redis backend sits above
// crawlkit, so its codes are checked here.
type Covered<T extends CrawlkitErrorCode> = T;
type _RedisCodesCovered = Covered<RedisBackendErrorCode>;

const codes = Object.keys(ERROR_CODES) as CrawlkitErrorCode[];

describe('error codes', () => {
  it('gives every code an HTTP status, a meaning and what to do', () => {
    expect(codes.length).toBeGreaterThan(50);
    for (const code of codes) {
      const info = ERROR_CODES[code];
      expect(Number.isInteger(info.status) && info.status >= 200 && info.status < 600, code).toBe(true);
      expect(info.meaning.length, code).toBeGreaterThan(10);
      expect(info.action.length, code).toBeGreaterThan(5);
      expect(httpStatusOf(code)).toBe(info.status);
    }
    expect(httpStatusOf('NOT_A_CODE')).toBe(500);
    expect(httpStatusOf(undefined)).toBe(500);
  });

  it('uses the statuses of issue 19 and upstream (reference §17)', () => {
    expect(httpStatusOf('BAD_REQUEST')).toBe(400);
    expect(httpStatusOf('UNAUTHORIZED')).toBe(401);
    expect(httpStatusOf('INSUFFICIENT_CREDITS')).toBe(402);
    expect(httpStatusOf('JOB_NOT_FOUND')).toBe(404);
    expect(httpStatusOf('SCRAPE_NO_CACHED_DATA')).toBe(404);
    expect(httpStatusOf('SCRAPE_TIMEOUT')).toBe(408);
    expect(httpStatusOf('MAP_TIMEOUT')).toBe(408);
    expect(httpStatusOf('JOB_ALREADY_COMPLETED')).toBe(409);
    expect(httpStatusOf('IDEMPOTENCY_KEY_REUSED')).toBe(409);
    expect(httpStatusOf('QUEUE_FULL')).toBe(429);
    expect(httpStatusOf('SCRAPE_DNS_RESOLUTION_ERROR')).toBe(200);
    expect(httpStatusOf('UNKNOWN_ERROR')).toBe(500);
  });

  it('has one README row per code with its status, meaning and action (pnpm docs:tables)', () => {
    expect(readmeRows(TABLES.errors)).toEqual(TABLES.errors.rows());
    expect(readmeRows(TABLES.errors).map((row) => row[0])).toEqual(codes.map((code) => `\`${code}\``));
  });

  it('gives each error class its own brand and matches all of them by code', () => {
    const errors = [
      new CrawlkitError('JOB_NOT_FOUND', 'Job not found'),
      new FetchError('SCRAPE_TIMEOUT', 'slow'),
      new BrowserError('BROWSER_CRASHED', 'gone'),
      new ActionError('SCRAPE_ACTION_ERROR', 'no match'),
      new StoreError('STORE_IO', 'disk'),
      new JobNotFoundError('j1'),
      new ExtractorError('SCRAPE_PDF_PARSE_ERROR', 'broken'),
      new MarkdownBudgetError(),
      new RedisBackendError('REDIS_UNAVAILABLE', 'down'),
    ];
    const guards = [
      isCrawlkitError,
      isFetchError,
      isBrowserError,
      isActionError,
      isStoreError,
      isStoreError,
      isExtractorError,
      isMarkdownBudgetError,
      isRedisBackendError,
    ];
    errors.forEach((error, i) => {
      expect(hasCrawlkitCode(error), error.name).toBe(true);
      expect(isErrorCode(error.code)).toBe(true);
      guards.forEach((guard, j) => expect(guard(error), `${guard.name}(${error.name})`).toBe(guards[i] === guards[j]));
    });
    expect(hasCrawlkitCode(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(false);
    expect(hasCrawlkitCode({ code: 'BAD_REQUEST' })).toBe(false);
  });

  it("derives CrawlkitError's status from the table", () => {
    expect(new CrawlkitError('SCRAPE_NO_CACHED_DATA', 'none').status).toBe(404);
    expect(new CrawlkitError('LLM_REQUEST_FAILED', 'down').status).toBe(ERROR_CODES.LLM_REQUEST_FAILED.status);
  });
});
