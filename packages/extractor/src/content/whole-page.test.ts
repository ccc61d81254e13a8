// A page where no block wins (its `<main>` holds a headline and no story, the rest of the page is rails): the whole
// page comes back, cleaned as a container is, with the page's facts (its address, its headline), so that the rules
// that read them run there too, and `explainPage` names them.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';

const URL = 'https://tidewater.example/news/2026/12/pier-lights-replaced-after-storm';

const rail = (label: string, section: string): string =>
  `<div class="v-3"><span class="v-4">${label}</span>${Array.from(
    { length: 6 },
    (_, i) =>
      `<div class="v-5"><a href="/${section}/2026/12/${label.toLowerCase().replace(/ /g, '-')}-story-${i}">${label} story number ${i} with a headline of some length</a> <span>${i + 2} hours ago</span></div>`,
  ).join('')}</div>`;

const shell = `<!doctype html><html><head><meta property="og:type" content="article"><title>T</title></head><body><div class="v-1"><a href="/">Tidewater</a> <a href="/news">News</a> <a href="/sport">Sport</a></div><div class="v-2"><main><h1>Pier lights replaced after the storm</h1><div class="v-6" data-story="load"></div></main>${rail('Also today', 'news')}${rail('Elsewhere', 'sport')}</div></body></html>`;

describe('extractMainContent: the whole page, when no block wins', () => {
  it("is cleaned with the page's address and headline, and explainPage names the rule", () => {
    const explained = explainPage(shell, { url: URL });
    expect(explained.source).toBe('page');
    const headline = explained.blocks.find((b) => b.text.includes('Pier lights replaced'));
    expect(headline).toMatchObject({ verdict: 'kept', rule: 'page' });
    const rail = explained.blocks.find((b) => b.text.includes('Also today story number 3'));
    expect(rail).toMatchObject({ verdict: 'dropped', rule: 'story-rail', module: 'story-rails.ts' });
  });
});
