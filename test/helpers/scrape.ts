// Shared by the end-to-end tests that scrape through the public API.
import type { Document, ErrorResponse, ScrapeResponse } from 'crawlkit';

/** Chromium resolves only 127.0.0.1: a test page that reaches for another host fails instead of leaving the box. */
export const ISOLATED_ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

/** The document of a successful scrape; a failed one fails the test with its code and message. */
export function data(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`scrape failed: ${response.code} ${response.error}`);
  return response.data;
}
