/**
 * Pages that show part of their content in an iframe: a browser scrape reads the frames the page can reach (same
 * origin, `srcdoc`) as part of it, each as Firecrawl's browser gives it, a `<div data-original-tag="iframe">`
 * holding the frame's body, so that v2's `includeTags: ['iframe']` (rewritten to that div) selects it.
 */
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { expectInOrder } from './helpers/in-order.ts';
import { data, ISOLATED_ARGS } from './helpers/scrape.ts';

const OUTER = `<h1>Opening hours</h1><p>Our shop in Porto, on the corner of Rua das Flores.</p>
<iframe id="hours" title="Hours" src="/hours"></iframe>
<iframe srcdoc="<p>Parking is free for customers after 18:00.</p>"></iframe>
<iframe style="display:none" src="/tracking"></iframe>`;
const HOURS = `<h2>This week</h2><p>Monday to Friday 9:00 to 19:00, Saturday 10:00 to 14:00.</p>
<a href="/holidays">Holiday hours</a>`;

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/shop': (_req, res) => sendPage(res, 'Shop', OUTER),
      '/hours': (_req, res) => sendPage(res, 'Hours', HOURS),
      '/tracking': (_req, res) => sendPage(res, 'Tracking', '<p>Tracking frame text nobody sees.</p>'),
    }),
  crawlkit: { store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS }, timeoutMs: 20_000 },
});

describe('iframes in a browser scrape', () => {
  it("puts a same-origin frame's and a srcdoc frame's text in the markdown and links, not a hidden frame's", async () => {
    const doc = data(
      await env.ck.scrape({
        url: `${env.server.url}/shop`,
        formats: ['markdown', 'links'],
        onlyMainContent: false,
        maxAge: 0,
      }),
    );
    const md = doc.markdown!;
    // Before: only the outer page's text; the frames' text was nowhere, without a word.
    expectInOrder(md, [
      'Our shop in Porto',
      '## This week',
      'Monday to Friday 9:00 to 19:00',
      'Parking is free for customers after 18:00.',
    ]);
    expect(md).not.toContain('Tracking frame text');
    expect(doc.links).toContain(`${env.server.url}/holidays`);
  }, 30_000);

  it("selects the frames' content with includeTags: ['iframe'], as v2 rewrites it", async () => {
    const doc = data(
      await env.ck.scrape({
        url: `${env.server.url}/shop`,
        formats: ['markdown'],
        includeTags: ['iframe#hours'],
        maxAge: 0,
      }),
    );
    // Before: an empty markdown, the selector matching nothing.
    expect(doc.markdown).toContain('Monday to Friday 9:00 to 19:00');
    expect(doc.markdown).not.toContain('Our shop in Porto');
  }, 30_000);
});
