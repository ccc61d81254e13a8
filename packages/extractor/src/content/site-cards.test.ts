// Cards of the site's other pages after a short story (`site-cards.ts`): a grid of cards (a title link, a line of
// teaser, a "Learn more" to the same page) after a brief goes, with its label; the same cards after a long story, a
// grid the story goes on after, cards linking to other sites, cards with a paragraph of description (a roundup's
// items), priced cards, links inside sentences, replies under linked names, cards the text announces, a page that does
// not declare itself an article (a documentation hub) and a page without a URL keep theirs.
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extractMainContent } from './index.js';

const URL = 'https://ledger.example/en/reports/quarterly/harbour-freight-volumes-autumn';

const brief = `<h1>Harbour freight volumes, autumn</h1><p>Freight through the harbour rose by a fifth in the third quarter, the busiest since the new quay opened, as two shipping lines moved their northern calls from the river port.</p><p>Container traffic grew fastest, while bulk grain fell back after a record summer; the port expects the winter quarter to be flat.</p>`;

const names = ['Freight advisory', 'Port valuations', 'Customs and duties', 'Shipping finance'];

/**
 * `n` cards, each a title link, a teaser of `teaser` lines and a "Learn more" to the same page (`host` none: the
 * site's own).
 */
const cards = (n: number, { host = '', teaser = 1, label = '<h3>Work with us</h3>', price = '' } = {}): string =>
  `<div class="q-3">${label}<div class="q-4">${Array.from({ length: n }, (_, i) => {
    const href = `${host}/en/services/${names[i % names.length]!.toLowerCase().replace(/ /g, '-')}-${i}`;
    const line = `<p>Card number ${i}: ${price}${'advice for owners and lenders across the whole of the trade. '.repeat(teaser)}</p>`;
    return `<div><a href="${href}"><p>${names[i % names.length]}</p></a>${line}<div><a href="${href}">Learn more</a></div></div>`;
  }).join('')}</div></div>`;

/** A page holding `main`, declared an article (`og:type`) unless `declared` is false. */
const page = (main: string, declared = true): string =>
  `<!doctype html><html><head><title>T</title>${declared ? '<meta property="og:type" content="article">' : ''}</head><body><div class="k-1"><a href="/">Ledger</a></div><div class="k-2">${main}</div></body></html>`;

function text(html: string, url: string | null = URL): string {
  return textContent(extractMainContent(parseDocument(html), url ? { url } : {})).replace(/\s+/g, ' ');
}

describe("extractMainContent: cards of the site's other pages after a short story", () => {
  it('drops a grid of cards, with its label, after a brief', () => {
    const out = text(page(`${brief}${cards(4)}`));
    expect(out).toContain('flat');
    expect(out).not.toContain('Card number');
    expect(out).not.toContain('Work with us');
  });

  it('keeps cards after a long story, and cards the story goes on after', () => {
    const long =
      brief +
      `<p>${'The harbour board said the new cranes, delivered in spring, have cut the time a ship spends at the quay. '.repeat(45)}</p>`;
    expect(text(page(`${long}${cards(4)}`))).toContain('Card number 3');
    const after = `<p>The board will publish the winter figures in February, together with its forecast for the next two years of trade through the harbour.</p>`;
    expect(text(page(`${brief}${cards(4)}${after}`))).toContain('Card number 3');
  });

  it("keeps links inside the text's sentences, and linked names beside a time (replies)", () => {
    const inline = (n: number, beside: string): string =>
      `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/en/services/${names[i]!.toLowerCase().replace(/ /g, '-')}">${names[i]}</a>${beside} card number ${i} is worth a look for owners and lenders.</li>`).join('')}</ul>`;
    expect(text(page(`${brief}${inline(4, ',')}`))).toContain('card number 3');
    const replies = `<ul>${Array.from({ length: 4 }, (_, i) => `<li><div><a href="/members/${i}">member${i}</a> <span>${i + 1} weeks ago</span></div><p>Reply number ${i}: I saw the same queues at the quay last spring.</p></li>`).join('')}</ul>`;
    expect(text(page(`${brief}${replies}`))).toContain('Reply number 3');
  });

  it('keeps cards the story announces (a roundup of its own guides)', () => {
    const lead = `<p>Owners asked which of our guides to read first; these are the four we would start with:</p>`;
    expect(text(page(`${brief}${cards(4, { label: lead })}`))).toContain('Card number 3');
  });

  it('keeps cards of other sites, cards with a description (a roundup), fewer than three, and on a page without a URL', () => {
    expect(text(page(`${brief}${cards(4, { host: 'https://partner.example' })}`))).toContain('Card number 3');
    expect(text(page(`${brief}${cards(4, { teaser: 5 })}`))).toContain('Card number 3');
    expect(text(page(`${brief}${cards(2)}`))).toContain('Card number 1');
    expect(text(page(`${brief}${cards(4, { price: 'from $129, ' })}`))).toContain('Card number 3');
    expect(text(page(`${brief}${cards(4)}`), null)).toContain('Card number 3');
  });

  it('keeps them on a page that does not declare itself an article (a hub: an intro above its pages)', () => {
    expect(text(page(`${brief}${cards(4)}`, false))).toContain('Card number 3');
  });

  it('names its rule in explainPage', () => {
    const block = explainPage(page(`${brief}${cards(4)}`), { url: URL }).blocks.find((b) =>
      b.text.includes('Card number 2'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'site-cards', module: 'site-cards.ts' });
  });
});
