// Rails of links to other sites after a story (`deal-rails.ts`): links to other hosts, each with a short mark ("Ad",
// the shop's name), go after a brief; bare links to other sites (a resource list), a roundup whose list is its
// content, a list followed by more story and a page without a URL keep theirs.
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extractMainContent } from './index.js';

const URL = 'https://tidings.example/town/bakery-reopens-after-fire';

const brief = `<h1>Bakery reopens after fire</h1><p>The corner bakery on Elm Street reopened on Saturday, eight months after a kitchen fire closed it, with a queue that stretched past the post office by seven in the morning.</p><p>The owners said the new ovens bake twice as many loaves an hour as the old ones did.</p>`;

/** `n` links to another site, each with `mark` beside it (none when empty). */
const deals = (n: number, mark = '<span>Ad</span>'): string =>
  `<div class="y-7"><b>From our partners</b>${Array.from(
    { length: n },
    (_, i) =>
      `<div class="y-8"><a href="https://shop${i % 2}.example/item/${i}">Offer number ${i}: a cast-iron pan with a glass lid</a> ${mark}</div>`,
  ).join('')}</div>`;

const page = (article: string): string =>
  `<!doctype html><html><head><title>T</title></head><body><div class="k-1"><a href="/">Tidings</a></div><article class="k-2">${article}</article></body></html>`;

function text(html: string, url: string | null = URL): string {
  return textContent(extractMainContent(parseDocument(html), url ? { url } : {})).replace(/\s+/g, ' ');
}

describe('extractMainContent: rails of links to other sites after a story', () => {
  it('drops a rail of marked links to other sites, with its label, after a brief', () => {
    const out = text(page(`${brief}${deals(4)}`));
    expect(out).toContain('twice as many loaves');
    expect(out).not.toContain('Offer number');
    expect(out).not.toContain('From our partners');
  });

  it('keeps bare links to other sites, fewer than three, and a rail on a page without a URL', () => {
    expect(text(page(`${brief}${deals(4, '')}`))).toContain('Offer number 3');
    expect(text(page(`${brief}${deals(2)}`))).toContain('Offer number 1');
    expect(text(page(`${brief}${deals(4)}`), null)).toContain('Offer number 3');
  });

  it('keeps a roundup whose list outweighs its intro, and links the story goes on after', () => {
    const intro = `<h1>Pan deals</h1><p>We checked the prices of the pans we tested this morning; these are the ones on sale.</p>`;
    expect(text(page(`${intro}${deals(6)}`))).toContain('Offer number 5');
    const after = `<p>The bakery will open on Sundays from next month, and the owners plan to hire two more bakers before the holidays, when orders for stollen and fruit loaves usually double.</p>`;
    expect(text(page(`${brief}${deals(4)}${after}`))).toContain('Offer number 3');
  });

  it("keeps marked links to its base's host (a copy on another host takes them as the site's own)", () => {
    const based = (links: string): string =>
      page(`${brief}${links}`).replace('<head>', '<head><base href="https://www.tidings.example/">');
    const mobile = URL.replace('//', '//m.');
    expect(text(based(deals(4).replace(/https:\/\/shop\d\.example\//g, '')), mobile)).toContain('Offer number 3');
    expect(text(based(deals(4)), mobile)).not.toContain('Offer number');
  });

  it('names its rule in explainPage', () => {
    const block = explainPage(page(`${brief}${deals(4)}`), { url: URL }).blocks.find((b) =>
      b.text.includes('Offer number 2'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'deal-rail', module: 'deal-rails.ts' });
  });
});
