import { describe, expect, it } from 'vitest';

import { notFound } from './routes.js';

describe('an endpoint crawlkit does not offer', () => {
  it('says what to do instead of extract: a batch scrape or crawl with the json format', () => {
    for (const path of ['/v2/extract', '/v1/extract', '/v2/extract/0191f0a4-0000-7000-8000-000000000000']) {
      const answer = notFound('POST', path) as { code: string; error: string };
      expect(answer.code).toBe('ENDPOINT_NOT_SUPPORTED');
      expect(answer.error).toContain(`POST ${path} (extract) is a Firecrawl endpoint that crawlkit does not offer; `);
      expect(answer.error).toContain(
        'for JSON from several pages, scrape them with the json format: POST /v2/batch/scrape',
      );
    }
  });

  it('names only what is served for an endpoint with no counterpart', () => {
    const answer = notFound('POST', '/v2/agent') as { error: string };
    expect(answer.error).toMatch(
      /^POST \/v2\/agent \(agent\) is a Firecrawl endpoint that crawlkit does not offer; crawlkit serves scrape/,
    );
  });
});
