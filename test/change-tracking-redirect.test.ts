// A tracked page that begins to redirect (a job posting closed and sent to its listing) read `changed`, its diff the
// posting against the listing, and nothing said the address now led elsewhere. Its document now says so.
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

let closed = false;

describe('changeTracking of a page that begins to redirect', () => {
  const env = useFixtureEngine({
    server: () =>
      startRouteSite({
        '/jobs': (_req, res) => sendPage(res, 'Open positions', '<ul><li><a href="/jobs/7">Designer</a></li></ul>'),
        '/jobs/7': (_req, res) => {
          if (closed) return void res.writeHead(301, { location: '/jobs' }).end();
          sendPage(res, 'Product Designer', '<p>Design the apply flow.</p><p>€60,000 – €80,000 a year.</p>');
        },
      }),
  });

  it('is changed, with a warning naming where it went; the page before and after says nothing', async () => {
    const url = `${env.server.url}/jobs/7`;
    const track = async () =>
      data(await env.ck.scrape({ url, formats: ['markdown', { type: 'changeTracking' }], maxAge: 0 }));
    expect((await track()).warning).toBeUndefined();
    expect((await track()).warning).toBeUndefined();
    closed = true;
    const moved = await track();
    expect(moved.changeTracking?.changeStatus).toBe('changed');
    // Before: no warning.
    expect(moved.warning).toBe(
      `The page redirected to ${env.server.url}/jobs: change tracking compared that page with the last version kept ` +
        `for ${url}. If that address did not redirect before, its page is no longer there (a closed job posting sent ` +
        'to its listing, a page moved).',
    );
    // The listing against itself the next night: same, and nothing to say.
    const again = await track();
    expect(again.changeTracking?.changeStatus).toBe('same');
    expect(again.warning).toBeUndefined();
  });
});
