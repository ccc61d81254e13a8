// A card's or a post's age standing alone ("3 days ago") goes: a thread's post headers, a listing's story cards. An age
// inside a sentence stays, a dated line stays, and the ages stay where they are most of what the cleaning leaves.
import { isTag } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { textOf } from '../dom/walk.js';

import { explainPage } from '../explain/index.js';
import { extractMainContent } from './index.js';
import { extract, page, prose } from './__fixtures__/synthetic-page.js';

const AGES = ['2 hours ago', '3 days ago', '1 week ago', '5 months ago'];

/** A thread of four posts, each under a header row: the poster's name, the post's age and its number. */
const thread = (): string =>
  AGES.map(
    (age, i) =>
      `<div class="post"><div class="post-head"><span class="who">poster${i + 1}</span><span class="when">${age}</span><span class="num">#${i + 1}</span></div>${prose(`reply${i + 1}`, 2)}</div>`,
  ).join('');

/** A listing of four story cards, each a linked title, a teaser sentence and the story's age on a line of its own. */
const cards = (): string =>
  AGES.map(
    (age, i) =>
      `<article class="card"><h3><a href="/story/${i + 1}">Story number ${i + 1} about the harbour</a></h3>${prose(`teaser${i + 1}`, 1)}<div class="meta">${age}</div></article>`,
  ).join('');

describe('age lines', () => {
  it("drops each post's age in a thread's header rows, and keeps the names and the posts", () => {
    const { text } = extract(page(`<main><h1>Which tent for a wet spring?</h1>${thread()}</main>`));
    for (const age of AGES) expect(text).not.toContain(age);
    expect(text).toContain('poster1');
    expect(text).toContain('reply4 paragraph 2');
  });

  it("drops a listing card's age set as a line of its own", () => {
    const { text } = extract(page(`<main><h1>Harbour news</h1>${cards()}</main>`));
    for (const age of AGES) expect(text).not.toContain(age);
    expect(text).toContain('Story number 4 about the harbour');
    expect(text).toContain('teaser4 paragraph 1');
  });

  it('names its rule in explain', () => {
    // a block of its own (a card's line); an age inline in a header row is a part of the row's block
    const html = page(`<main><h1>Harbour news</h1>${cards()}</main>`);
    const block = explainPage(html, { url: 'https://example.test/news' }).blocks.find((b) => b.text === '3 days ago');
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'age-line', module: 'age-lines.ts' });
  });

  it('keeps an age inside a sentence, and a dated line', () => {
    const sentence = `<p>We opened the new ferry pier <time>3 days ago</time>, and since then the queues at the old one have gone.</p>`;
    const dated = `<p class="dateline">March 4, 2026</p>`;
    const { text } = extract(page(`<main><h1>Harbour news</h1>${dated}${sentence}${prose('pier', 3)}</main>`));
    expect(text).toContain('new ferry pier 3 days ago, and since then');
    expect(text).toContain('March 4, 2026');
  });

  it('keeps the ages where they are most of what the cleaning leaves', () => {
    // the cards' titles are buttons (`link-button`) and go: the ages are what is left of the list
    const list = AGES.map(
      (age, i) =>
        `<div class="job"><h3><a class="btn btn-link" href="/job/${i + 1}">Engineer ${i + 1}</a></h3><p class="time">${age}</p></div>`,
    ).join('');
    const { text } = extract(page(`<main><h2>Jobs with a shorter week</h2>${list}</main>`));
    for (const age of AGES) expect(text).toContain(age);
  });

  it('reads an age at the bottom of 20,000 nested wrappers, and a short line that is not one', () => {
    const depth = 20_000;
    const deep = (text: string): string => `${'<div>'.repeat(depth)}${text}${'</div>'.repeat(depth)}`;
    const html = page(
      `<main><h1>Harbour news</h1>${deep('4 days ago')}${deep('Ferry times')}${prose('pier', 6)}</main>`,
    );
    const doc = extractMainContent(parseDocument(html), { url: 'https://example.test/news' });
    // read without recursion (domutils' textContent recurses a level a frame)
    const text = doc.children.map((c) => (isTag(c) ? textOf(c) : '')).join(' ');
    expect(text).not.toContain('4 days ago');
    expect(text).toContain('Ferry times');
  });
});
