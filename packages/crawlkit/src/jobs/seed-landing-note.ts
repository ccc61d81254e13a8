import { redactUrl } from '@crawlkit/fetcher';
import { siteHostname } from '@crawlkit/options/site-host';

import { namesPage, sendTheSession } from '../scrape/sign-in-redirect.js';

/**
 * What a crawl's status says of a seed that redirected away: to a page whose query names the seed (a sign-in page,
 * its `next=` or `service=`: the crawl read the sign-in page and what it links to, and "completed" said nothing), or
 * to another host, which the crawl then follows. Nothing for a redirect within the site (`/latest` to `/v2/`).
 */
export function seedLandingNote(seedUrl: string, landedUrl: string | undefined): string | undefined {
  if (landedUrl === undefined) return undefined;
  const seed = URL.parse(seedUrl);
  const landed = URL.parse(landedUrl);
  if (!seed || !landed) return undefined;
  const from = redactUrl(seed);
  const to = redactUrl(landed);
  if (landed.search && namesPage(landed, seed)) {
    return (
      `The seed ${from} redirected to ${to}, a page that names the seed in its query: a sign-in page, most likely, ` +
      `so the crawl read what can be reached without signing in. ${sendTheSession('crawl')}`
    );
  }
  if (siteHostname(landed.hostname) !== siteHostname(seed.hostname)) {
    return `The seed ${from} redirected to another host, ${to}: the crawl followed it there.`;
  }
  return undefined;
}
