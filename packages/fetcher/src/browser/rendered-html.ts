import { PageTooLargeError, readPageHtml, type ReadPageHtmlOptions } from '@crawlkit/actions';
import type { Page } from 'puppeteer-core';

import { FetchError } from '../errors.js';
import { redactUrl } from '../policy/url-policy.js';

/**
 * The rendered page's HTML (read in slices, see `readPageHtml`); a document longer than `maxChars` (the HTTP body
 * limit) is refused as an HTTP body over `maxBodyBytes` is, before any of it is sent. A navigation during the read
 * is followed (within `options.timeoutMs`) and the document it led to is read.
 */
export async function readRenderedHtml(
  page: Page,
  maxChars: number,
  url: string,
  options: ReadPageHtmlOptions = {},
): Promise<string> {
  try {
    return await readPageHtml(page, maxChars, options);
  } catch (error) {
    if (!(error instanceof PageTooLargeError)) throw error;
    throw new FetchError(
      'SCRAPE_RESPONSE_TOO_LARGE',
      `The rendered page (${error.length} characters) exceeds the limit of ${error.limit} bytes (http.limits.maxBodyBytes).`,
      { url: redactUrl(url) },
    );
  }
}
