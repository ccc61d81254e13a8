import render from 'dom-serializer';
import type { AnyNode, ParentNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, site } from '../content/__fixtures__/news-site.js';
import { extractMainContent } from '../content/index.js';
import { parseHtml } from './parse.js';
import { StreamedParts } from './streamed-segments.js';
import { elements } from './walk.js';

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

/** Whether every parent, sibling and `children` link under `root` agrees with the others. */
function linked(root: ParentNode): boolean {
  const stack: ParentNode[] = [root];
  while (stack.length) {
    const parent = stack.pop()!;
    const children: AnyNode[] = parent.children;
    for (let i = 0; i < children.length; i++) {
      const c = children[i]!;
      if (c.parent !== parent || c.prev !== (children[i - 1] ?? null) || c.next !== (children[i + 1] ?? null))
        return false;
      if ('children' in c) stack.push(c);
    }
  }
  return true;
}

/** Places the streamed parts of a tree that `parseHtml` did not build, as the parser does; returns how many. */
function placeStreamedSegments(root: ParentNode): number {
  const parts = new StreamedParts();
  for (const el of elements(root)) parts.observe(el);
  return parts.place();
}

/** The tree as the markup has it, parts not placed (`parseHtml` places them). */
const unplaced = (html: string) => parseDocument(html);

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
    // the public main-content call on a parsed page sees the same story
    const main = render(extractMainContent(parseHtml(streamedNewsPage())));
    expect(main).toContain('Part 1 on the vote');
    expect(main).toContain('Harbour Road in numbers');
    expect(main).not.toContain('Loading story');
  });

  it('places the part without the comment marks too (a page saved without comments), the fallback staying', () => {
    const document = unplaced(streamedNewsPage({ comments: false }));
    expect(placeStreamedSegments(document)).toBe(2);
    const html = render(document);
    // the parser places them the same way
    expect(render(parseHtml(streamedNewsPage({ comments: false })))).toBe(html);
    expect(html).not.toContain('hidden id="S:');
    expect(html).not.toContain('<template');
    expect(html.indexOf('Part 1 on the vote')).toBeGreaterThan(html.indexOf('Council approves'));
    expect(html.indexOf('Part 1 on the vote')).toBeLessThan(html.indexOf('Loading story'));
    expect(html.indexOf('sign-off line')).toBeLessThan(html.indexOf('Customer service'));
  });

  it('leaves parts without a placeholder, and a placeholder inside its own part, where they are', () => {
    const html = `<body><div id="app"><p>Shell</p></div><div hidden id="S:2"><p>Orphan part</p></div><div hidden id="S:3"><p>Inside</p><template id="B:3"></template></div></body>`;
    const document = unplaced(html);
    expect(placeStreamedSegments(document)).toBe(0);
    expect(render(document)).toBe(render(unplaced(html)));
    expect(render(parseHtml(html))).toBe(render(unplaced(html)));
  });

  it("places parts that arrive innermost first, and leaves two parts holding each other's placeholder", () => {
    // each part holds the next one's placeholder; they arrive from the last to the first
    const parts = Array.from(
      { length: 5 },
      (_, i) => `<div hidden id="S:${4 - i}"><p>Part ${4 - i}</p><template id="P:${5 - i}"></template></div>`,
    ).join('');
    const cycle = `<div hidden id="S:a"><p>Part a</p><template id="P:b"></template></div><div hidden id="S:b"><p>Part b</p><template id="P:a"></template></div>`;
    const document = unplaced(`<body><main><template id="P:0"></template></main>${parts}${cycle}</body>`);
    expect(placeStreamedSegments(document)).toBe(6);
    expect(linked(document)).toBe(true);
    const html = render(document);
    expect(html).toMatch(
      /<main><p>Part 0<\/p><p>Part 1<\/p><p>Part 2<\/p><p>Part 3<\/p><p>Part 4<\/p><template id="P:5"><\/template><\/main>/,
    );
    // the pair that only holds each other is not lost: one of them stays where it was, holding the other
    expect(html).toContain('Part a');
    expect(html).toContain('Part b');
  });

  it('keeps a page without streamed parts as it was, ids that only look alike included', () => {
    const html = `<body><template id="B:0"><p>Client template</p></template><div id="S:0"><p>Not hidden: not a streamed part</p></div></body>`;
    const document = unplaced(html);
    expect(placeStreamedSegments(document)).toBe(0);
    expect(render(document)).toBe(render(unplaced(html)));
    expect(render(parseHtml(html))).toBe(render(unplaced(html)));
  });
});
