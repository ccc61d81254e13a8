/**
 * `timeout` past the longest timer Node keeps (2^31 - 1 ms, about 24.8 days) was taken and fired at once: a map with
 * `timeout: 3000000000` answered MAP_TIMEOUT "took more than its timeout of 3000000000 ms" before it started, a
 * scrape an internal option's name (`timeoutMs`), and the server printed a TimeoutOverflowWarning (qa47b's Left:
 * `timeout` had no upper bound). Upstream's schema sets no maximum (reference §3.3): crawlkit's is the timer's, and a
 * request past it is a 400 naming `timeout` and the rule. The largest one is taken.
 */
import type { ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';

const env = useFixtureEngine();
const TOO_LONG = 3_000_000_000;
const RULE = 'timeout is at most 2147483647 ms (about 24.8 days, the longest time Node.js keeps a timer)';

function refusal(response: unknown): string {
  const error = response as ErrorResponse & { details?: { path: (string | number)[]; message: string }[] };
  expect(error.success, JSON.stringify(response).slice(0, 300)).toBe(false);
  expect(error.code).toBe('BAD_REQUEST');
  const detail = error.details?.find((issue) => issue.path.at(-1) === 'timeout');
  return detail?.message ?? error.error;
}

describe('timeout past the longest timer', () => {
  it('is refused with the rule by scrape, map, search, batch and a crawl’s scrapeOptions', async () => {
    const url = `${env.server.url}/`;
    const ck = env.ck;
    expect(refusal(await ck.scrape({ url, timeout: TOO_LONG }))).toBe(RULE);
    expect(refusal(await ck.map({ url, timeout: TOO_LONG }))).toBe(RULE);
    expect(refusal(await ck.search({ query: 'widget', timeout: TOO_LONG }))).toBe(RULE);
    expect(refusal(await ck.batchScrape({ urls: [url], timeout: TOO_LONG }))).toBe(RULE);
    expect(refusal(await ck.crawl({ url, scrapeOptions: { timeout: TOO_LONG } }))).toBe(RULE);
  });

  it('takes the longest one', async () => {
    const map = await env.ck.map({ url: `${env.server.url}/`, timeout: 2 ** 31 - 1 });
    expect(map.success, JSON.stringify(map).slice(0, 300)).toBe(true);
  });
});
