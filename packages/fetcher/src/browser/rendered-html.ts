import { PageTooLargeError, readPageHtml } from '@crawlkit/actions';
import type { Page } from 'puppeteer-core';

import { FetchError } from '../errors.js';
import { redactUrl } from '../policy/url-policy.js';

/**
 * The rendered page's HTML (read in slices, see `readPageHtml`); a document longer than `maxChars` (the HTTP body
 * limit) is refused as an HTTP body over `maxBodyBytes` is, before any of it is sent.
 */
export async function readRenderedHtml(page: Page, maxChars: number, url: string): Promise<string> {
  try {
    return await readPageHtml(page, maxChars);
  } catch (error) {
    if (!(error instanceof PageTooLargeError)) throw error;
    throw new FetchError(
      'SCRAPE_RESPONSE_TOO_LARGE',
      `The rendered page (${error.length} characters) exceeds the limit of ${error.limit} bytes (http.limits.maxBodyBytes).`,
      { url: redactUrl(url) },
    );
  }
}
