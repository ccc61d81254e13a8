// A site that answers an unknown path with its "Page not found" page and status 200 (a catch-all route, a single-page
// app): a crawl following a stale link stored that page as content, without a word. Its document now says so.
import { describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

describe('a page that answers 200 with a not-found title', () => {
  const env = useFixtureEngine({
    server: () =>
      startRouteSite({
        '/': (_req, res) =>
          sendPage(res, 'Docs', '<p>The guide.</p><a href="/guide">Guide</a> <a href="/old-page">Old page</a>'),
        '/guide': (_req, res) => sendPage(res, 'Guide – Docs', '<p>How to install and configure the tool.</p>'),
        '/old-page': (_req, res) => sendPage(res, 'Page not found – Docs', '<p>Sorry, nothing lives here.</p>'),
      }),
  });

  it("is kept in a crawl, with a warning in its document; the others' say nothing", async () => {
    const started = ok(await env.ck.crawl({ url: `${env.server.url}/` }));
    const status = ok(await env.ck.waitForJob(started.id));
    const warnings = Object.fromEntries(status.data.map((d) => [new URL(d.metadata.sourceURL).pathname, d.warning]));
    expect(Object.keys(warnings).sort()).toEqual(['/', '/guide', '/old-page']);
    // Before: no warning on any of them.
    expect(warnings['/old-page']).toContain(
      'The page answered 200 but its title, "Page not found – Docs", says it was not found: a soft 404, most likely',
    );
    expect(warnings['/']).toBeUndefined();
    expect(warnings['/guide']).toBeUndefined();
  }, 30_000);
});
