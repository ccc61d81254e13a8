// A site that answers an unknown path with its "Page not found" page and status 200 (a catch-all route, a single-page
// app): a crawl following a stale link stored that page as content, without a word. Its document now says so, and so
// does a short page's that says its thing is gone (a closed posting: "This job is no longer available.").
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

describe('a short page that answers 200 saying its thing is gone', () => {
  const article =
    '<p>Recruiters close postings in many ways. ' +
    'Some leave the page up with a banner. This position has been filled. ' +
    'Others redirect to the listing, and a few answer 404 or 410, which is what a crawler reads best. '.repeat(6) +
    '</p>';
  const env = useFixtureEngine({
    server: () =>
      startRouteSite({
        '/jobs/41': (_req, res) =>
          sendPage(
            res,
            'Senior Backend Engineer – Careers',
            '<p>Berlin, full time.</p><p>This job is no longer available. <a href="/jobs">See open roles</a></p>',
          ),
        '/jobs/42': (_req, res) =>
          sendPage(
            res,
            'Data Analyst – Careers',
            '<p>Remote.</p><div class="notice">This position has been filled</div>',
          ),
        '/jobs/43': (_req, res) =>
          sendPage(res, 'Designer – Careers', '<p>The banner read "This job has expired" for a week.</p>'),
        '/blog/closing-postings': (_req, res) => sendPage(res, 'How boards close postings', article),
        '/jobs/44': (_req, res) => sendPage(res, 'Site Engineer – Careers', '<p>Apply by March 3.</p>'),
      }),
  });

  const warningOf = async (path: string) => {
    const page = ok(await env.ck.scrape({ url: `${env.server.url}${path}`, maxAge: 0 }));
    return page.data.warning;
  };

  it('gets the soft-404 warning, naming the sentence', async () => {
    // Before: no warning.
    expect(await warningOf('/jobs/41')).toBe(
      'The page answered 200 but its text, "This job is no longer available.", says what it was is gone: a soft 404, ' +
        'most likely (a closed posting or a removed listing the site still answers).',
    );
    expect(await warningOf('/jobs/42')).toContain(
      'its text, "This position has been filled", says what it was is gone',
    );
  });

  it('not on a page that quotes the phrase, nor on a long article with it as a sentence, nor on an open posting', async () => {
    expect(await warningOf('/jobs/43')).toBeUndefined();
    expect(await warningOf('/blog/closing-postings')).toBeUndefined();
    expect(await warningOf('/jobs/44')).toBeUndefined();
  });
});
