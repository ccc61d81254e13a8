// A page where no block wins (its `<main>` holds a line and no story, the rest of the page is rails): the whole page
// comes back, cleaned as a container is, with the page's facts, and `explainPage` names the rules. When its `<main>`
// holds the headline of a declared article's story and no story, that head is the answer instead (`story-shell`).
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';

const URL = 'https://tidewater.example/news/2026/12/pier-lights-replaced-after-storm';

const rail = (label: string, section: string): string =>
  `<div class="v-3"><span class="v-4">${label}</span>${Array.from(
    { length: 6 },
    (_, i) =>
      `<div class="v-5"><a href="/${section}/2026/12/${label.toLowerCase().replace(/ /g, '-')}-story-${i}">${label} story number ${i} with a headline of some length</a> <span>${i + 2} hours ago</span></div>`,
  ).join('')}</div>`;

/** A declared article whose HTML holds no story: its headline and a line, placed by `layout`, and its rails. */
const shell = (layout: (h1: string, line: string) => string): string =>
  `<!doctype html><html><head><meta property="og:type" content="article"><title>T</title></head><body><div class="v-1"><a href="/">Tidewater</a> <a href="/news">News</a> <a href="/sport">Sport</a></div><div class="v-2">${layout('<h1>Pier lights replaced after the storm</h1>', '<p class="v-7">Work finished overnight.</p>')}${rail('Also today', 'news')}${rail('Elsewhere', 'sport')}</div></body></html>`;

/** Its `<main>` holds the headline: the story's head is the answer. */
const inMain = shell((h1, line) => `<main>${h1}${line}<div class="v-6" data-story="load"></div></main>`);
/** Its `<main>` holds a line and the empty story, the headline is above it: no block wins, the whole page comes back. */
const aboveMain = shell((h1, line) => `<div class="v-8">${h1}</div><main>${line}<div class="v-6"></div></main>`);

describe('extractMainContent: the whole page, when no block wins', () => {
  it('is cleaned as a container is, and explainPage names the rule that dropped a block', () => {
    const explained = explainPage(aboveMain, { url: URL });
    expect(explained.source).toBe('page');
    expect(explained.blocks.find((b) => b.text.includes('Pier lights replaced'))).toMatchObject({ verdict: 'kept' });
    const menu = explained.blocks.find((b) => b.text.startsWith('Tidewater'));
    expect(menu).toMatchObject({ verdict: 'dropped', rule: 'link-list', module: 'link-lists.ts' });
  });

  it("is the story's head instead, when the page's <main> holds the headline of a story it does not hold", () => {
    const explained = explainPage(inMain, { url: URL });
    expect(explained.source).toBe('container');
    expect(explained.blocks.find((b) => b.text.includes('Pier lights'))).toMatchObject({ rule: 'story-shell' });
    expect(explained.blocks.filter((b) => b.verdict === 'kept').map((b) => b.text)).toEqual([
      'Pier lights replaced after the storm',
      'Work finished overnight.',
    ]);
    const undeclared = explainPage(inMain.replace('<meta property="og:type" content="article">', ''), { url: URL });
    expect(undeclared.source).toBe('page');
  });
});
