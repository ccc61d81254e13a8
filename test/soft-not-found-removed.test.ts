/**
 * A closed posting that answers 200 saying so ("This job is no longer available.": the soft-404 warning) read
 * `changed` in change tracking, while a 404 reads `removed` (L8 (b) of docs/qa-job-board-day.md). It now reads as a 404
 * does, in the `changeTracking` format and in a crawl's change feed; a posting that begins to redirect to its listing
 * stays `changed`, with its warning.
 */
import { describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

let closed = false;

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/jobs': (_req, res) =>
        sendPage(
          res,
          'Open roles',
          '<ul><li><a href="/jobs/41">Backend</a></li><li><a href="/jobs/7">Design</a></li>' +
            '<li><a href="/jobs/12">Support</a></li></ul>',
        ),
      '/jobs/41': (_req, res) =>
        sendPage(
          res,
          'Backend Engineer – Careers',
          closed
            ? '<p>Berlin, full time.</p><p>This job is no longer available.</p>'
            : '<p>Berlin, full time.</p><p>Build our payments API in Go. Apply by March 3.</p>',
        ),
      '/jobs/12': (_req, res) => {
        if (closed) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
        sendPage(res, 'Support Engineer – Careers', '<p>Answer our users in three languages.</p>');
      },
      '/jobs/7': (_req, res) => {
        if (closed) return void res.writeHead(301, { location: '/jobs' }).end();
        sendPage(res, 'Product Designer – Careers', '<p>Design the apply flow.</p>');
      },
    }),
});

const track = async (path: string) =>
  data(
    await env.ck.scrape({
      url: `${env.server.url}${path}`,
      formats: ['markdown', { type: 'changeTracking' }],
      maxAge: 0,
    }),
  );

describe('a page gone by its own word', () => {
  it('reads removed in changeTracking, as a 404 does; a redirect to another page stays changed', async () => {
    closed = false;
    expect((await track('/jobs/41')).changeTracking?.changeStatus).toBe('new');
    expect((await track('/jobs/7')).changeTracking?.changeStatus).toBe('new');
    closed = true;
    const gone = await track('/jobs/41');
    // Before: changed.
    expect(gone.changeTracking?.changeStatus).toBe('removed');
    expect(gone.changeTracking?.diff).toBeUndefined();
    expect(gone.warning).toContain('its text, "This job is no longer available.", says what it was is gone');
    const moved = await track('/jobs/7');
    expect(moved.changeTracking?.changeStatus).toBe('changed');
    expect(moved.warning).toContain(`The page redirected to ${env.server.url}/jobs`);
  });

  it("reads removed in a crawl's change feed, and new when it is back; only a version of a page has a hash", async () => {
    const crawl = async () => {
      const started = ok(
        await env.ck.crawl({ url: `${env.server.url}/jobs`, tag: 'board', sitemap: 'skip', ignoreRobotsTxt: true }),
      );
      const status = ok(await env.ck.waitForJob(started.id));
      return Object.fromEntries(
        status.data.map((d) => [
          new URL(d.metadata.sourceURL).pathname,
          { change: d.metadata.crawlChange, hashed: d.metadata.contentHash !== undefined },
        ]),
      );
    };
    closed = false;
    const first = await crawl();
    expect(first['/jobs/41']).toEqual({ change: 'new', hashed: true });
    expect(first['/jobs/12']).toEqual({ change: 'new', hashed: true });
    closed = true;
    const second = await crawl();
    // Before: changed.
    expect(second['/jobs/41']).toEqual({ change: 'removed', hashed: false });
    // Before: a 404 carried the hash of its error page, where the soft 404 had none.
    expect(second['/jobs/12']).toEqual({ change: 'removed', hashed: false });
    expect(second['/jobs']).toEqual({ change: 'same', hashed: true });
    closed = false;
    const third = await crawl();
    expect(third['/jobs/41']).toEqual({ change: 'new', hashed: true });
    expect(third['/jobs/12']).toEqual({ change: 'new', hashed: true });
  });
});
