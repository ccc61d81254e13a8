import { describe, expect, it } from 'vitest';

import { Container } from './container.js';
import { feedEvents, type HtmlSink } from './drivers.js';
import { Footnotes, isFootnoteBackref, isFootnoteRef, openFootnote } from './footnotes.js';
import { dataImage, imageMarkdown } from './images.js';
import { isPermalinkText, samePage } from './permalinks.js';
import { planRaw, type RawEvent } from './raw-html.js';
import { Stack } from './stack.js';
import { UrlResolver } from './urls.js';

// The modules split out of converter.ts, each on its own; the converter's behaviour is the other test files'.

describe('footnotes', () => {
  it('tells references from back-links by their markup', () => {
    expect(isFootnoteRef({ 'data-footnote-ref': '' }, 'user-content-fn-1', false)).toBe(true);
    expect(isFootnoteRef({ role: 'doc-noteref' }, 'id3', false)).toBe(true);
    expect(isFootnoteRef({ class: 'footnote-reference brackets' }, 'id3', false)).toBe(true);
    expect(isFootnoteRef({}, 'fn:1', true)).toBe(true);
    // a `#fn` link outside `<sup>` with nothing else is an ordinary link
    expect(isFootnoteRef({}, 'fn:1', false)).toBe(false);
    expect(isFootnoteBackref({ role: 'doc-backlink' }, 'id1')).toBe(true);
    expect(isFootnoteBackref({}, 'fnref:1')).toBe(true);
    expect(isFootnoteBackref({}, 'usage')).toBe(false);
  });

  it("labels a reference by its text's letters and digits, else by its number, the same for a second one", () => {
    const notes = new Footnotes();
    expect(notes.refer('fn:1', '[1]')).toBe('1');
    expect(notes.refer('fn:x', '*')).toBe('2');
    expect(notes.refer('fn:1', '[1]')).toBe('1');
    expect(notes.label('fn:x')).toBe('2');
    expect(notes.label('elsewhere')).toBeUndefined();
    expect(notes.size).toBe(2);
  });

  it('writes a note block as `[^label]: ` with its later lines indented', () => {
    const root = new Container('root');
    const stack = new Stack(root);
    openFootnote(stack, '1', root);
    stack.cur.text('First.');
    stack.cur.boundary();
    stack.cur.text('Second.');
    (stack.frames.pop() as { close(): void }).close();
    root.flushParagraph();
    expect(root.blocks.map((b) => b.text)).toEqual(['[^1]: First.\n\n    Second.']);
  });
});

describe('permalinks', () => {
  it("takes a symbol or an icon without alt text for a permalink's mark, words not", () => {
    for (const text of ['#', '¶', '§', '\u200b', '', '![](/icons/link.svg)']) expect(isPermalinkText(text)).toBe(true);
    for (const text of ['Usage', '1', '![link](/icons/link.svg)']) expect(isPermalinkText(text)).toBe(false);
  });

  it('knows a link to the page itself, with the page URL or, absent, the base', () => {
    const urls = new UrlResolver('https://docs.test/guide/a');
    expect(samePage('#x', undefined, urls)).toBe(true);
    expect(samePage('/guide/a#x', undefined, urls)).toBe(true);
    expect(samePage('/guide/b#x', undefined, urls)).toBe(false);
    expect(samePage('/guide/b#x', 'https://docs.test/guide/b', urls)).toBe(true);
  });
});

describe('images', () => {
  it('replaces a base64 data URL only when asked, and reads a lazy image from its data attribute', () => {
    const gif = 'data:image/gif;base64,R0lGOD';
    expect(dataImage(gif, true)).toBe('<Base64-Image-Removed>');
    expect(dataImage(gif, false)).toBe(gif);
    expect(dataImage('data:image/svg+xml,<svg/>', true)).toBe('data:image/svg+xml,<svg/>');
    const urls = new UrlResolver('https://a.test/p/');
    expect(imageMarkdown({ src: gif, 'data-src': 'big.png', alt: 'A [b]' }, urls, true)).toBe(
      '![A \\[b\\]](https://a.test/p/big.png)',
    );
    expect(imageMarkdown({ alt: 'none' }, urls, true)).toBeUndefined();
  });
});

describe('feedEvents', () => {
  it("replays a recorded subtree, skipping a refused element's subtree and end tag", () => {
    const events: RawEvent[] = [
      { open: 'div', attribs: {} },
      'a',
      { open: 'span', attribs: { skip: '' } },
      'hidden',
      { close: 'span' },
      'b',
      { close: 'div' },
    ];
    const seen: string[] = [];
    const sink: HtmlSink = {
      open: (name, attribs) => (seen.push(`<${name}>`), attribs.skip === undefined),
      text: (data) => void seen.push(data),
      close: (name) => void seen.push(`</${name}>`),
    };
    const at: number[] = [];
    feedEvents(sink, events, planRaw(events).end, (i) => at.push(i));
    expect(seen).toEqual(['<div>', 'a', '<span>', 'b', '</div>']);
    expect(at).toEqual([0, 2]);
  });
});
