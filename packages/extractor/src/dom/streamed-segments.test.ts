import render from 'dom-serializer';
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, site } from '../content/__fixtures__/news-site.js';
import { parseHtml } from './parse.js';
import { placeStreamedSegments } from './streamed-segments.js';

const paragraphs = (n: number, topic: string) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Part ${i + 1} on ${topic}: the committee heard residents, shop owners and the ferry company over three meetings, and the final design moved the lanes away from the bus stops and the market.</p>`,
  ).join('');

/**
 * A news page served by React's streaming renderer, as Next.js sends it: the shell holds the title, a "Loading…"
 * fallback where the story's body goes and a related-stories rail; the body arrives after the footer in
 * `<div hidden id="S:0">`, itself holding a placeholder (`P:1`) for a fact box that arrives last.
 */
function streamedNewsPage({ comments = true } = {}): string {
  const open = comments ? '<!--$?-->' : '';
  const close = comments ? '<!--/$-->' : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour Road | The Riverside Courier</title>${articleHead}</head>
<body>${site.cookie}${site.top}${site.brand}
<main><article class="story"><h1>Council approves new bike lanes on Harbour Road</h1><div class="meta">By <a href="/staff/jane-doe">Jane Doe</a> | 9 March 2026</div>
${open}<template id="B:0"></template><div class="skeleton"><p>Loading story…</p><div class="bar"></div><div class="bar"></div></div>${close}
<p>Reporting by the Courier's city desk. This story closes here with the reporter's sign-off line, after the body.</p></article>
<aside class="rail"><h3>More stories</h3><ul><li><a href="/a1">Flood warning issued for the lower valley</a></li><li><a href="/a2">New bakery opens in the old post office</a></li><li><a href="/a3">School board delays budget vote again</a></li></ul></aside></main>
${site.bottom}
<div hidden id="S:0"><div class="story-body">${paragraphs(4, 'the vote')}<template id="P:1"></template>${paragraphs(2, 'the works')}</div></div>
<script>$RC("B:0","S:0")</script>
<div hidden id="S:1"><div class="fact-box"><h2>Harbour Road in numbers</h2><p>Eleven collisions involving cyclists in three years, 2.4 kilometres of new protected lane, ten weeks of works.</p></div></div>
<script>$RS("S:1","P:1")</script></body></html>`;
}

describe('placeStreamedSegments', () => {
  it("puts a streamed story's body where its placeholder was, in order, with the fallback gone", () => {
    const { markdown } = markdownOf(streamedNewsPage());
    expectOnly(
      markdown,
      ['Part 1 on the vote', 'Harbour Road in numbers', 'Part 2 on the works'],
      ['Loading story', 'Flood warning issued', 'Customer service'],
    );
    const at = (text: string) => markdown.indexOf(text);
    expect(at('Part 4 on the vote')).toBeLessThan(at('Harbour Road in numbers'));
    expect(at('Harbour Road in numbers')).toBeLessThan(at('Part 1 on the works'));
  });

  it('places the part without the comment marks too (a page saved without comments), the fallback staying', () => {
    const document = parseHtml(streamedNewsPage({ comments: false }));
    expect(placeStreamedSegments(document)).toBe(2);
    const html = render(document);
    expect(html).not.toContain('hidden id="S:');
    expect(html).not.toContain('<template');
    expect(html.indexOf('Part 1 on the vote')).toBeGreaterThan(html.indexOf('Council approves'));
    expect(html.indexOf('Part 1 on the vote')).toBeLessThan(html.indexOf('Loading story'));
    expect(html.indexOf('sign-off line')).toBeLessThan(html.indexOf('Customer service'));
  });

  it('leaves parts without a placeholder, and a placeholder inside its own part, where they are', () => {
    const html = `<body><div id="app"><p>Shell</p></div><div hidden id="S:2"><p>Orphan part</p></div><div hidden id="S:3"><p>Inside</p><template id="B:3"></template></div></body>`;
    const document = parseHtml(html);
    expect(placeStreamedSegments(document)).toBe(0);
    expect(render(document)).toBe(render(parseHtml(html)));
  });

  it('keeps a page without streamed parts as it was, ids that only look alike included', () => {
    const html = `<body><template id="B:0"><p>Client template</p></template><div id="S:0"><p>Not hidden: not a streamed part</p></div></body>`;
    const document = parseHtml(html);
    expect(placeStreamedSegments(document)).toBe(0);
    expect(render(document)).toBe(render(parseHtml(html)));
  });
});
