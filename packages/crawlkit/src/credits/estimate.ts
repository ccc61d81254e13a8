import { documentCredits } from '../scrape/stages/respond.js';
import type { Format } from '../v2/formats.js';

/** What a page's credits are estimated from before it is fetched. */
export interface PageCreditRequest {
  formats: readonly Format[];
  proxy?: string | undefined;
  zeroDataRetention: boolean;
}

/**
 * The credits a page is expected to cost, reserved before it is fetched: the document's credits by the one rule
 * (`documentCredits`) with the proxy it asks for. What only the page shows (a PDF's pages, an `auto` proxy that
 * escalates to stealth) is settled after, when its real cost is known.
 */
export function pageCreditEstimate(request: PageCreditRequest): number {
  return documentCredits({
    formats: request.formats,
    proxyUsed: request.proxy === 'stealth' ? 'stealth' : 'basic',
    zeroDataRetention: request.zeroDataRetention,
  });
}
