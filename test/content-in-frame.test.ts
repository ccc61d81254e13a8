// A careers page whose postings are an applicant-tracking system's embed (`<iframe src>`, Greenhouse's shape): read
// over HTTP, its markdown was the page's heading and footer, with "No main content was found" and nothing of the frame
// (qa-job-board-day L7). The warning now names the frame's URL, to scrape it; the frame itself is never fetched.
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

const GTM =
  '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0"></iframe></noscript>';
const FOOTER = '<footer>© 2026 Acme Inc. <a href="/privacy">Privacy</a></footer>';
const ARTICLE = `<article><h1>How we hire</h1>${[1, 2, 3, 4].map((n) => `<p>Step ${n}: every application is read by a person on the team you would join, who answers within two weeks.</p>`).join('')}<iframe src="https://video.example/embed/7" width="560" height="315"></iframe></article>`;

let frameRequests = 0;
const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/careers': (_req, res) =>
        sendPage(
          res,
          'Careers – Acme',
          `${GTM}<h1>Join us</h1><div id="grnhse_app"><iframe id="grnhse_iframe" title="Greenhouse Job Board" src="/embed/job_board?for=acme" width="100%" scrolling="no" frameborder="0"></iframe></div>${FOOTER}`,
        ),
      '/booking': (_req, res) => sendPage(res, 'Book', '<iframe src="https://book.example/w/acme"></iframe>'),
      '/tracked': (_req, res) =>
        sendPage(res, 'Hi', `${GTM}<h1>Hello</h1><iframe src="/pixel" style="display:none"></iframe>${FOOTER}`),
      '/blog/hiring': (_req, res) => sendPage(res, 'How we hire', ARTICLE),
      '/embed/job_board': (_req, res) => {
        frameRequests++;
        sendPage(res, 'Jobs', '<h2>Staff Data Engineer</h2>');
      },
    }),
});

async function warningOf(path: string): Promise<string | undefined> {
  const doc = data(await env.ck.scrape({ url: `${env.server.url}${path}`, formats: ['markdown'], maxAge: 0 }));
  return doc.warning;
}

describe('a page whose content is in a frame', () => {
  it("names the frame's absolute URL to scrape, and does not fetch it", async () => {
    const warning = await warningOf('/careers');
    // Before: only "No main content was found on this page: …", and nothing of the frame.
    expect(warning).toContain(
      "This page has little text of its own and shows a frame (an <iframe>): its content is likely the frame's page, " +
        "which a scrape does not fetch. Scrape the frame's URL to read it: " +
        `${env.server.url}/embed/job_board?for=acme`,
    );
    expect(warning).not.toContain('googletagmanager');
    expect(frameRequests).toBe(0);
  });

  it('says so of a page that is only a frame, whose markdown is empty', async () => {
    // Before: an empty markdown and no warning at all.
    expect(await warningOf('/booking')).toMatch(/Scrape the frame's URL to read it: https:\/\/book\.example\/w\/acme$/);
  });

  it('says nothing of a hidden or tag-manager frame, nor of a video beside an article', async () => {
    expect((await warningOf('/tracked')) ?? '').not.toContain('frame');
    expect(await warningOf('/blog/hiring')).toBeUndefined();
  });
});
