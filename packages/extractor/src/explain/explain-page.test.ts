import { describe, expect, it } from 'vitest';

import { DROP_RULES } from '../content/trace.js';
import { extractPage } from '../page.js';
import { explainPage, type ExplainedBlock, type ExplainedPage } from './index.js';
import { holdsRun, withoutUrls, words } from './suggest.js';

const url = 'https://courier.example/local/bike-lanes';

const story = [
  'The city council voted 7 to 2 on Monday evening to add protected bike lanes along Harbour Road, between the ferry terminal and the old mill.',
  'Work is expected to start in May and last about ten weeks. Parking on the north side of the road will be removed while the lanes are built.',
  'Councillor Amir Shah, who proposed the scheme, said the road had seen eleven collisions involving cyclists in three years.',
];
const related = 'School board delays its budget vote for the third time this year, citing the cost of the new roof';
const sidebar =
  'Our morning newsletter brings the harbour news to your inbox every day, free of charge, with a digest on Sundays.';
const caption = 'Harbour Road at dawn, where the new lanes will run along the water.';

const page = `<!doctype html><html><head><title>Bike lanes</title><meta property="og:type" content="article"></head><body>
<header class="site-header"><nav><a href="/">Home</a> <a href="/local">Local</a> <a href="/sport">Sport</a></nav></header>
<main><article class="story"><h1>Council approves new bike lanes on Harbour Road</h1>
<div class="byline">By <a href="/staff/jane-doe">Jane Doe</a> | 9 March 2026</div>
<p>${story[0]}</p><p>${story[1]} <a class="btn" href="/subscribe">Subscribe now</a></p>
<figure><img src="/dawn.jpg" alt="Harbour Road"><figcaption>${caption}</figcaption></figure>
<p>${story[2]}</p>
<div class="actions"><button type="button"><span class="sr-only">Add to favourites. 3 readers saved this</span></button></div>
<p class="note" hidden>A hidden note that readers never see on the page itself.</p>
<h2>Related articles</h2><ul><li><a href="/local/budget">${related}</a></li><li><a href="/local/bakery">New bakery opens in the old post office on Market Square</a></li></ul>
</article></main>
<aside class="sidebar"><p>${sidebar}</p></aside>
<footer class="site-footer"><p>© 2026 The Courier. All rights reserved. Write to the newsroom for corrections.</p></footer>
</body></html>`;

function blockOf(explained: ExplainedPage, text: string): ExplainedBlock {
  const found = explained.blocks.find((b) => b.text.includes(text));
  if (!found) throw new Error(`no block holds ${JSON.stringify(text)}`);
  return found;
}

function markdownWith(options: { includeTags?: string[]; excludeTags?: string[]; onlyMainContent?: boolean }): string {
  return (
    extractPage(page, {
      url,
      ...options,
      ...(options.onlyMainContent === undefined ? {} : { onlyMainContent: options.onlyMainContent }),
      formats: { markdown: true },
    }).markdown ?? ''
  );
}

describe('explainPage: every block with its verdict and the rule that decided', () => {
  const explained = explainPage(page, { url });

  it('names the rule that dropped a paragraph under a furniture heading, and where the rule lives', () => {
    const block = blockOf(explained, related);
    expect(block).toMatchObject({
      verdict: 'dropped',
      rule: 'furniture-section',
      module: 'sections.ts',
      reason: DROP_RULES['furniture-section'].says,
    });
    expect(blockOf(explained, 'Related articles')).toMatchObject({ verdict: 'dropped', rule: 'furniture-heading' });
  });

  it('keeps the story paragraphs, and its container is the article', () => {
    for (const text of story) expect(blockOf(explained, text)).toMatchObject({ verdict: 'kept', rule: 'container' });
    expect(explained.source).toBe('container');
    expect(explained.container).toEqual(['article']);
  });

  it('names the chrome rule, and the element it removed, for a paragraph in a sidebar', () => {
    const block = blockOf(explained, sidebar);
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'chrome', module: 'chrome.ts', decidedAt: 'body > aside' });
    expect(blockOf(explained, 'Home Local Sport')).toMatchObject({ rule: 'chrome', decidedAt: 'body > header' });
  });

  it('names captions, hidden text and the parts of a kept paragraph that a rule dropped', () => {
    expect(blockOf(explained, caption)).toMatchObject({ verdict: 'dropped', rule: 'caption' });
    expect(blockOf(explained, 'A hidden note')).toMatchObject({ verdict: 'dropped', rule: 'hidden' });
    expect(blockOf(explained, story[1]!)).toMatchObject({
      verdict: 'kept',
      droppedParts: [{ text: 'Subscribe now', rule: 'furniture-text' }],
    });
  });

  it('drops a block whose every word went with a part a rule dropped (a screen-reader label in a button)', () => {
    expect(blockOf(explained, 'Add to favourites')).toMatchObject({
      verdict: 'dropped',
      rule: 'hidden',
      decidedAt: 'body > main > article > div:nth-of-type(2) > button > span',
    });
  });

  it('agrees with extractPage: kept blocks are in its markdown, dropped ones are not', () => {
    const markdown = words(withoutUrls(markdownWith({})));
    for (const b of explained.blocks) {
      if (b.verdict === 'kept' && !b.droppedParts) expect(holdsRun(markdown, words(b.text)), b.text).toBe(true);
      if (b.verdict === 'dropped') expect(holdsRun(markdown, words(b.text)), b.text).toBe(false);
    }
  });

  it('gives each block a selector that matches it alone in the page', () => {
    const block = blockOf(explained, story[2]!);
    expect(block.selector).toBe('body > main > article > p:nth-of-type(3)');
    expect(markdownWith({ includeTags: [block.selector], onlyMainContent: false }).trim()).toBe(story[2]);
  });
});

describe('explainPage: options that would keep a dropped paragraph', () => {
  const explained = explainPage(page, { url });

  it('suggests includeTags that keep it, checked by extracting the page again', () => {
    for (const text of [related, sidebar, caption]) {
      const { suggestion } = blockOf(explained, text);
      expect(suggestion?.checked).toBe(true);
      expect(suggestion?.includeTags?.length).toBeGreaterThan(0);
      const markdown = markdownWith({
        includeTags: suggestion!.includeTags!,
        ...(suggestion!.onlyMainContent === false ? { onlyMainContent: false } : {}),
      });
      expect(markdown).toContain(text.slice(0, 40));
      // the story comes with it
      expect(markdown).toContain(story[0]);
    }
  });

  it('suggests the excludeTags that drop a kept block when asked for it', () => {
    const asked = explainPage(page, { url, suggest: (b) => b.text.startsWith('Councillor') });
    const { suggestion } = blockOf(asked, story[2]!);
    expect(suggestion).toMatchObject({ excludeTags: [expect.any(String)], checked: true });
    expect(markdownWith({ excludeTags: suggestion!.excludeTags! })).not.toContain(story[2]);
    expect(markdownWith({ excludeTags: suggestion!.excludeTags! })).toContain(story[0]);
  });

  it('makes no suggestion when asked for none', () => {
    expect(explainPage(page, { url, suggest: false }).blocks.some((b) => b.suggestion)).toBe(false);
  });
});

describe('explainPage: the options of the scrape', () => {
  it('names excludeTags as the rule of what they removed, matched on the page before the main content rules', () => {
    const explained = explainPage(page, { url, excludeTags: ['h1', 'figure'] });
    expect(blockOf(explained, 'Council approves')).toMatchObject({ verdict: 'dropped', rule: 'exclude-tags' });
    // v2's order: excludeTags took the figure before the cleaning could drop its caption
    expect(blockOf(explained, caption)).toMatchObject({ verdict: 'dropped', rule: 'exclude-tags' });
  });

  it('with includeTags, keeps what they match and names what lies outside them', () => {
    const explained = explainPage(page, { url, includeTags: ['article'] });
    expect(explained.source).toBe('include-tags');
    expect(blockOf(explained, related)).toMatchObject({ verdict: 'kept', rule: 'include-tags' });
    expect(blockOf(explained, sidebar)).toMatchObject({ verdict: 'dropped', rule: 'not-included' });
    // with onlyMainContent, the v2 boilerplate selectors still apply to what includeTags keep
    const aside = explainPage(page, { url, includeTags: ['aside'] });
    expect(blockOf(aside, sidebar)).toMatchObject({ verdict: 'dropped', rule: 'boilerplate' });
  });

  it('with onlyMainContent false, keeps the whole page', () => {
    const explained = explainPage(page, { url, onlyMainContent: false });
    expect(explained.source).toBe('whole-page');
    expect(blockOf(explained, sidebar)).toMatchObject({ verdict: 'kept', rule: 'whole-page' });
  });

  it('says so when no element is a candidate and the whole page is kept', () => {
    const teasers = Array.from(
      { length: 6 },
      (_, i) => `<div class="teaser"><h3><a href="/s/${i}">Story number ${i} of the front page</a></h3></div>`,
    ).join('');
    const explained = explainPage(`<html><body>${teasers}</body></html>`, { url });
    expect(['page', 'empty-main']).toContain(explained.source);
    expect(explained.blocks.every((b) => b.verdict === 'kept')).toBe(true);
  });

  it('never throws on broken or empty HTML', () => {
    for (const html of ['', '<', '<html><body></body></html>', '<div><p>open', '<![CDATA[ x', '<table><td>cell']) {
      expect(() => explainPage(html, { url })).not.toThrow();
    }
  });
});

describe('explainPage of tag names a selector cannot hold as written', () => {
  // Word's HTML export writes `<o:p>` and `<st1:place>`; broken markup gives names such as `p"x`. As written in a
  // selector, `st1:place` asks for a pseudo-class `:place`, and explainPage threw "Unknown pseudo-class :place".
  const word = [
    'The survey covered forty farms along the river, from the delta to the first weir, over two summers.',
    'Yields were highest where the floodplain had been left to grass between the harvests of each year.',
  ];
  const html = `<html><head><title>Survey</title></head><body><div class="WordSection1">
<p class="MsoNormal">${word[0]}<o:p></o:p></p>
<st1:place><p class="MsoNormal">${word[1]}</p></st1:place><p"x>A stray quote in a tag name.</p"x>
</div></body></html>`;

  it('escapes them, so each block selector is valid and matches its block alone', () => {
    const explained = explainPage(html, { url });
    const texts = [word[1]!, 'A stray quote in a tag name.'];
    for (const text of texts) {
      const block = blockOf(explained, text);
      const kept = extractPage(html, {
        url,
        includeTags: [block.selector],
        onlyMainContent: false,
        formats: { markdown: true },
      });
      expect(kept.markdown?.trim(), block.selector).toBe(text);
    }
    expect(blockOf(explained, word[1]!).selector).toContain('st1\\:place');
  });
});
