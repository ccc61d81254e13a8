// Rails of other stories after a story (`story-rails.ts`): headlines linking to pages shaped like this one go, with
// their label, whatever the label says; a listicle's items on another site, a story that goes on after the rail,
// short links of the same shape and a page without a URL keep theirs. Links are read against the page's `<base href>`.
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extractMainContent } from './index.js';

const URL = 'https://gazette.example/news/2026/11/night-ferry-suspended';

const brief = `<h1>Night ferry suspended after engine fault</h1><p>The late-evening ferry to the island will not run for at least a week after one of its two engines failed during a crossing on Tuesday night.</p><p>Nobody was hurt, and the vessel finished the trip on its second engine, the operator said.</p>`;

/** A rail of `n` headlines linking to `/news/2026/11/<slug>` (or `base`), each with a time. */
const rail = (
  n: number,
  base = '/news/2026/11/',
  text = (i: number) => `Harbour story number ${i} of the week has a long headline`,
): string =>
  `<div class="q-3"><span class="q-4">Also today</span>${Array.from(
    { length: n },
    (_, i) => `<div class="q-5"><a href="${base}story-${i}">${text(i)}</a> <span>${i + 1} hours ago</span></div>`,
  ).join('')}</div>`;

const page = (article: string): string =>
  `<!doctype html><html><head><title>T</title></head><body><div class="k-1"><a href="/">Gazette</a></div><article class="k-2">${article}</article></body></html>`;

function text(html: string, url: string | null = URL): string {
  return textContent(extractMainContent(parseDocument(html), url ? { url } : {})).replace(/\s+/g, ' ');
}

describe('extractMainContent: rails of other stories after a story', () => {
  it('drops a rail of headlines to pages shaped like this one, and its label, after a brief', () => {
    const out = text(page(`${brief}${rail(6)}`));
    expect(out).toContain('finished the trip on its second engine');
    expect(out).not.toContain('Harbour story number');
    expect(out).not.toContain('Also today');
  });

  it('keeps a rail without the page URL, or of fewer than three stories', () => {
    expect(text(page(`${brief}${rail(6)}`), null)).toContain('Harbour story number 5');
    expect(text(page(`${brief}${rail(2)}`))).toContain('Harbour story number 1');
  });

  it('keeps items linking to another site, another section, or by short names', () => {
    expect(text(page(`${brief}${rail(6, 'https://parks.example/walks/')}`))).toContain('Harbour story number 5');
    expect(text(page(`${brief}${rail(6, '/sport/2026/11/')}`))).toContain('Harbour story number 5');
    const names = rail(6, '/news/2026/11/', (i) => `Guide ${i}`);
    expect(text(page(`${brief}${names}`))).toContain('Guide 5');
  });

  it('keeps the links when the story goes on after them, or has no story before them', () => {
    const after = `<p>The operator expects the part from the manufacturer next week, and islanders who work late shifts at the hospital have been offered water taxis, paid for by the council, until the repair is done.</p>`;
    expect(text(page(`${brief}${rail(6)}${after}`))).toContain('Harbour story number 5');
    expect(text(page(`<h1>Ferry news</h1>${rail(6)}`))).toContain('Harbour story number 5');
  });

  it("keeps a section's grid under its intro, and links of a root-level page", () => {
    const intro = `<h1>Local news</h1><p>The latest stories from the town and the villages around it, from council meetings to school fairs, updated through the day by the newsroom. Send us your news: our reporters read every message, and the best tips make the front page.</p>`;
    expect(text(page(`${intro}${rail(6, '/news/')}`), 'https://gazette.example/news/local-news')).toContain(
      'Harbour story number 5',
    );
    expect(text(page(`${brief}${rail(6, '/')}`), 'https://gazette.example/night-ferry-suspended')).toContain(
      'Harbour story number 5',
    );
  });

  it('keeps links that sit among other parts of the page (a paragraph beside them)', () => {
    const aside = `<p>Islanders who work late shifts have been offered water taxis, paid for by the council, until the repair is done.</p>`;
    const mixed = rail(6).replace('</div>', `</div>${aside}`);
    expect(text(page(`${brief}${mixed}`))).toContain('Harbour story number 5');
  });

  it("reads the rail's links against the document's base, whose host is the site's too", () => {
    const based = (base: string): string =>
      page(`${brief}${rail(6, 'news/2026/11/')}`).replace('<head>', `<head><base href="${base}">`);
    // without the base, `news/2026/11/story-1` would sit under the page's own path, two levels deeper than a story
    expect(text(based('https://gazette.example/'))).not.toContain('Harbour story number');
    expect(text(based('https://www.gazette.example/'), URL.replace('//', '//m.'))).not.toContain(
      'Harbour story number',
    );
    expect(text(based('https://gazette.example/archive/'))).toContain('Harbour story number 5');
  });

  it('names its rule in explainPage', () => {
    const block = explainPage(page(`${brief}${rail(6)}`), { url: URL }).blocks.find((b) =>
      b.text.includes('Harbour story number 3'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'story-rail', module: 'story-rails.ts' });
  });
  it("keeps the story's last paragraph that shares a wrapper with the rail", () => {
    const items = Array.from(
      { length: 6 },
      (_, i) =>
        `<div class="q-5"><a href="/news/2026/11/story-${i}">Harbour story number ${i} of the week has a long headline</a> <span>${i + 1} hours ago by Ann Lee</span></div>`,
    ).join('');
    const last = `<p>Repairs should take about a week, and the operator will post the restart date on its website.</p>`;
    const out = text(page(`${brief}<div class="k-9">${last}<div class="q-3">${items}</div></div>`));
    expect(out).toContain('post the restart date on its website');
    expect(out).not.toContain('Harbour story number');
  });
});
