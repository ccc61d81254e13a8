import type { Fetcher } from '@crawlkit/fetcher';

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
 * (`documentCredits`) with the proxy it asks for, when `fetcher` has one (`Fetcher#stealthProxies`). What only the
 * page shows (a PDF's pages, an `auto` proxy that escalates to stealth) is settled after, when its real cost is known.
 */
export function pageCreditEstimate(request: PageCreditRequest, fetcher: Pick<Fetcher, 'stealthProxies'>): number {
  return documentCredits({
    formats: request.formats,
    // Without a stealth proxy a stealth page is served, and billed, as basic.
    proxyUsed: request.proxy === 'stealth' && fetcher.stealthProxies ? 'stealth' : 'basic',
    zeroDataRetention: request.zeroDataRetention,
  });
}
