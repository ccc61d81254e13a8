/**
 * What a dropped call to action or info icon leaves in a sentence, through `scrape()` (HTTP engine): no "?." after a
 * question whose button went, no " ." after a word whose tooltip icon went, whichever pass dropped it (the main
 * content's rules, the button rule, `excludeTags`). Punctuation nothing was dropped beside stays as written.
 */
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

const STORY =
  '<p>The harbour at dawn, before the boats go out, and the nets drying on the wall by the steps of the quay.</p>' +
  '<p>By noon the fleet is back, the catch is weighed and the gulls take what the crews leave on the stones.</p>';

const CARD =
  `${STORY}<p>Ready to sail with the fleet? <a class="btn btn-primary" href="/join">Join the crew</a>.</p>` +
  '<p>The annual fee is $95<a href="#" data-toggle="tooltip" title="Paid each spring">?</a>. It covers the berth ' +
  'and the harbour dues<span class="styles_tooltip__Oq0JW">ⓘ</span>, the winter storage and the crane.</p>' +
  '<p>Questions? <button class="cta">Ask us</button>. We answer within a day.</p>' +
  '<p>What is the fee for? <b>?</b>. Is it dear, e.g., for a dinghy? <em>?!</em></p>' +
  '<pre><code>fee?<span class="promo">x</span>.total</code></pre>';

/**
 * Footnote references raised in a `<sup>`, their links hidden from assistive technology (Samsung's), so the main
 * content drops them and the commas between stay; beside them a page's own raised marks: an ordinal, a dagger, a
 * period after a reference, a chemical formula.
 */
const NOTES =
  `${STORY}<p>The hull is fortified with a steel frame for a better grip.<sup><a href="#notes" aria-hidden="true">6</a>,` +
  '<a href="#notes" aria-hidden="true">22</a></sup> It floats in a storm.<sup> <a href="#notes" aria-hidden="true">' +
  '3</a>, <a href="#notes" aria-hidden="true">4</a>; <a href="#notes" aria-hidden="true">5</a></sup></p>' +
  '<p>Launched on the 1<sup>st</sup> of May<sup>†</sup>, it burns less than a ton of CO<sub>2</sub> a year.' +
  '<sup><a href="#notes" aria-hidden="true">7</a>.</sup></p>' +
  '<p>Its ballast water is kept alkaline, its OH<sup>-</sup> ions outnumbering H<sub>3</sub>O<sup>+</sup>.</p>';

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/fees': (_req, res) => sendPage(res, 'Fees', CARD),
      '/hull': (_req, res) => sendPage(res, 'Hull', NOTES),
    }),
});

describe('punctuation left by a dropped element', () => {
  it('goes with the call to action, the button and the info icon it closed', async () => {
    const url = `${env.server.url}/fees`;
    const doc = data(await env.ck.scrape({ url, formats: ['markdown'], maxAge: 0 }));
    expect(doc.markdown).toContain('Ready to sail with the fleet?\n');
    expect(doc.markdown).toContain('The annual fee is $95. It covers the berth and the harbour dues, the winter');
    expect(doc.markdown).toContain('Questions? We answer within a day.');
    // a "?" no tooltip marks, and punctuation beside which nothing was dropped, stay as the page wrote them
    expect(doc.markdown).toContain('What is the fee for? **?**. Is it dear, e.g., for a dinghy? *?!*');
    expect(doc.markdown).not.toMatch(/\?\.|[?!] \.| \./);
  });

  it('goes with what excludeTags removed, in the whole page too; code keeps every character', async () => {
    const url = `${env.server.url}/fees`;
    const body = {
      url,
      formats: ['markdown' as const],
      maxAge: 0,
      onlyMainContent: false,
      excludeTags: ['.btn', '.promo'],
    };
    const doc = data(await env.ck.scrape(body));
    expect(doc.markdown).toContain('Ready to sail with the fleet?\n');
    expect(doc.markdown).toContain('fee?.total');
  });

  it('takes a <sup> left holding the commas between the references that went; a raised mark of the page stays', async () => {
    const url = `${env.server.url}/hull`;
    const doc = data(await env.ck.scrape({ url, formats: ['markdown'], maxAge: 0 }));
    expect(doc.markdown).toContain('for a better grip. It floats in a storm.\n');
    expect(doc.markdown).toContain('Launched on the 1<sup>st</sup> of May<sup>†</sup>, it burns less than a ton of');
    expect(doc.markdown).toContain('CO<sub>2</sub> a year.<sup>.</sup>');
    expect(doc.markdown).toContain('its OH<sup>-</sup> ions outnumbering H<sub>3</sub>O<sup>+</sup>.');
    expect(doc.markdown).not.toMatch(/<sup>[\s,;]*<\/sup>/);
  });
});
