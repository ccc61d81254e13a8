import { describe, expect, it } from 'vitest';

import { contentFrames, namedFrames, shownFrameUrls } from './content-frames.js';
import { parseHtml } from './dom/parse.js';

const PAGE = 'https://acme.example/careers/';

describe('shownFrameUrls', () => {
  it('resolves against <base href>, once each, in order; leaves out srcdoc, hidden, tiny, noscript and non-http frames', () => {
    const html = `<head><base href="https://acme.example/x/"></head><body>
<iframe src="board?for=acme"></iframe><iframe src="board?for=acme"></iframe>
<iframe srcdoc="<p>Hi</p>" src="ignored"></iframe>
<div hidden><iframe src="/hidden-parent"></iframe></div>
<iframe src="/pixel" width="1" height="1"></iframe><iframe src="/zero" style="width:0;height:0"></iframe>
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X"></iframe></noscript>
<iframe src="about:blank"></iframe><iframe src="javascript:void(0)"></iframe>
<frameset><frame src="/menu"></frameset><iframe src="https://maps.example/embed" width="600"></iframe></body>`;
    expect(shownFrameUrls(parseHtml(html), PAGE)).toEqual([
      'https://acme.example/x/board?for=acme',
      'https://acme.example/menu',
      'https://maps.example/embed',
    ]);
  });
});

describe('contentFrames', () => {
  const framed = '<h1>Join us</h1><iframe src="/embed/board"></iframe>';

  it("names a near-empty page's frames, not a page with text of its own", () => {
    expect(contentFrames(framed, '# Join us', PAGE)).toEqual(['https://acme.example/embed/board']);
    const text = Array.from({ length: 61 }, (_, i) => `word${i}`).join(' ');
    expect(contentFrames(framed, text, PAGE)).toEqual([]);
    // link targets are not words: a footer's links do not make a page wordy
    expect(contentFrames(framed, `[Privacy](${PAGE}${'a/'.repeat(100)})`, PAGE)).toHaveLength(1);
  });

  it('lists three URLs and counts the rest', () => {
    expect(namedFrames(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c (and 2 more)');
    expect(namedFrames(['a'])).toBe('a');
  });
});
