// The frame warning in a browser scrape (test/content-in-frame.test.ts has it over HTTP): a frame the browser reads
// (same origin) is the page's content, and nothing is said; a cross-origin one stays an `<iframe>` whose content is
// not read, and the warning names it.
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { data, ISOLATED_ARGS } from './helpers/scrape.ts';

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/careers': (_req, res) => sendPage(res, 'Careers', '<h1>Join us</h1><iframe src="/embed/board"></iframe>'),
      '/partner': (_req, res) =>
        sendPage(res, 'Careers', '<h1>Join us</h1><iframe src="https://boards.example/embed/acme"></iframe>'),
      '/embed/board': (_req, res) =>
        sendPage(res, 'Jobs', '<h2>Staff Data Engineer</h2><p>Build the pipelines our analysts read every day.</p>'),
    }),
  crawlkit: { store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS }, timeoutMs: 20_000 },
});

const scrape = async (path: string) =>
  data(await env.ck.scrape({ url: `${env.server.url}${path}`, formats: ['markdown'], maxAge: 0 }));

describe('a page whose content is in a frame, in the browser', () => {
  it('reads a same-origin frame and says nothing of it', async () => {
    const doc = await scrape('/careers');
    expect(doc.markdown).toContain('Staff Data Engineer');
    expect(doc.warning ?? '').not.toContain('frame');
  }, 30_000);

  it('names a cross-origin frame, which it cannot read', async () => {
    expect((await scrape('/partner')).warning).toContain(
      "Scrape the frame's URL to read it: https://boards.example/embed/acme",
    );
  }, 30_000);
});
