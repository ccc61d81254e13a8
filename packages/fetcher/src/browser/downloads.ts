import type { HTTPResponse } from 'puppeteer-core';

import { parseContentType } from '../http/content-type.js';
import { redactUrl } from '../policy/url-policy.js';
import { BrowserError } from './errors.js';

const ATTACHMENT = /^\s*attachment/i;

/** Types headless Chromium renders itself; anything else (PDF, archives, media files) becomes a download. */
const RENDERED_TYPES =
  /^(?:text\/|image\/|application\/(?:xhtml\+xml|xml|json|javascript|ecmascript|[\w.-]+\+(?:xml|json))$)/;

/** Whether Chromium would save the main response as a file instead of showing it (it is refused). */
export function isDownload(response: HTTPResponse): boolean {
  const headers = response.headers();
  if (ATTACHMENT.test(headers['content-disposition'] ?? '')) return true;
  const type = parseContentType(headers['content-type']).type;
  return type !== '' && !RENDERED_TYPES.test(type);
}

export function downloadError(url: string, response: HTTPResponse): BrowserError {
  const type = response.headers()['content-type'] ?? 'unknown type';
  return new BrowserError(
    'SCRAPE_DOWNLOAD',
    `${redactUrl(url)} answered with a download (${type}); downloads are refused.`,
    { url: redactUrl(url) },
  );
}
