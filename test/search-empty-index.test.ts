/**
 * A search of a store that holds no page yet, as an agent's first call often is: the empty answer says the store is
 * empty and what fills it, instead of reading as "nothing matched"; a store with pages that do not match says
 * nothing of the kind.
 */
import { describe, expect, it } from 'vitest';

import { startFixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { textPage } from './helpers/text-page.ts';

const env = useFixtureEngine({
  server: () => startFixtureServer({ routes: { '/otter': textPage('Otters', 'The otter floats on its back.') } }),
});

describe('a search of an empty store', () => {
  it('says the store holds no page yet and what fills it', async () => {
    const answer = ok(await env.ck.search({ query: 'otter', sources: ['web', 'local'] }));
    expect(answer.data).toEqual({ web: [], local: [] });
    expect(answer.warning).toBe(
      'No page is stored in this store yet, so there is nothing to search: crawl, batch scrape or scrape pages ' +
        'first (with the same store), or configure a web search provider.',
    );
  });

  it('says nothing of the kind once a page is stored, matched or not', async () => {
    ok(await env.ck.scrape({ url: `${env.server.url}/otter` }));
    expect(ok(await env.ck.search({ query: 'walrus' })).warning).toBeUndefined();
    expect(ok(await env.ck.search({ query: 'otter' })).data.web).toHaveLength(1);
  });
});
