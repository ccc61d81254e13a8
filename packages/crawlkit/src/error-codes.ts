import type { ActionErrorCode } from '@crawlkit/actions';
import type { DocumentErrorCode } from '@crawlkit/documents';
import type { ExtractorErrorCode, MarkdownBudgetErrorCode } from '@crawlkit/extractor';
import type { BrowserErrorCode, FetchErrorCode } from '@crawlkit/fetcher';
import type { StoreErrorCode } from '@crawlkit/store';

import type { ErrorCodeInfo } from './error-codes/error-code-info.js';
import { PAGE_CODES } from './error-codes/page-codes.js';
import { REQUEST_CODES } from './error-codes/request-codes.js';
import { SERVICE_CODES } from './error-codes/service-codes.js';

export type { ErrorCodeInfo } from './error-codes/error-code-info.js';

/**
 * Every error code a crawlkit package returns or throws, with its HTTP status. This table is the one home of the
 * code → status rule: `CrawlkitError#status`, the scrape path and the HTTP server read it, and the README's error
 * table is generated from it (`pnpm docs:tables`).
 */
export const ERROR_CODES = {
  ...REQUEST_CODES,
  ...PAGE_CODES,
  ...SERVICE_CODES,
} as const satisfies Record<string, ErrorCodeInfo> &
  Record<
    | FetchErrorCode
    | BrowserErrorCode
    | ActionErrorCode
    | StoreErrorCode
    | ExtractorErrorCode
    | MarkdownBudgetErrorCode
    | DocumentErrorCode,
    ErrorCodeInfo
  >;

/** Every error code of crawlkit's packages: the `code` of a v2 error response, a job error or a thrown error. */
export type CrawlkitErrorCode = keyof typeof ERROR_CODES;

/** Whether `code` is one of crawlkit's error codes. */
export function isErrorCode(code: unknown): code is CrawlkitErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** The HTTP status the v2 API answers an error code with; 500 for a code crawlkit does not know. */
export function httpStatusOf(code: string | undefined): number {
  return isErrorCode(code) ? ERROR_CODES[code].status : 500;
}
