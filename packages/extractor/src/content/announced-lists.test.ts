// Lists of short links are furniture (tables of contents, tag clouds, "more" links), unless the text announces them
// with a sentence ending in a colon: then they are part of what the article says.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, shareIcons, story } from './__fixtures__/news-site.js';

const paragraphs = Array.from(
  { length: 5 },
  (_, i) =>
    `<p>Mover ${i}: the crew arrived on time, wrapped every piece of furniture and finished the three-bedroom move in under six hours, with no damage and no surprise fees on the final bill.</p>`,
).join('');

/** A movers guide: the story's fixture with a longer body and `end` after it. */
const withEnd = (end: string): string => story.replace('</div></article>', `${paragraphs}${end}</div></article>`);

describe('link lists announced by the text', () => {
  it('keeps a list of links that a sentence ending in a colon announces', () => {
    const end = `<h3>Other local movers</h3><p>While these local movers did not make our top list, they are still worth looking into:</p><ul><li><a href="/movers/als-moving">Al's Moving and Storage</a></li><li><a href="/movers/great-movers">City Great Movers</a></li><li><a href="/movers/sheridan">Sheridan Brothers Moving</a></li><li><a href="/movers/roadway">Roadway Moving</a></li></ul>`;
    const { markdown } = markdownOf(newsPage(withEnd(end), { head: articleHead }));
    expectOnly(markdown, ['still worth looking into', "Al's Moving and Storage", 'Roadway Moving']);
  });

  it('still drops a table of contents, and a list after a label rather than a sentence', () => {
    const toc = `<ul class="toc"><li><a href="#best">Best movers</a></li><li><a href="#prices">Prices</a></li><li><a href="#tips">Tips</a></li><li><a href="#faq">FAQ</a></li></ul>`;
    const labelled = `<p>See also:</p><ul><li><a href="/guides/packing">Packing guide</a></li><li><a href="/guides/storage">Storage units</a></li><li><a href="/guides/insurance">Moving insurance</a></li></ul>`;
    const { markdown } = markdownOf(
      newsPage(withEnd(labelled).replace('<div class="txt">', `<div class="txt">${toc}`), { head: articleHead }),
    );
    expectOnly(markdown, ['Mover 4:'], ['Best movers', 'Packing guide', 'Moving insurance']);
  });

  it('keeps lists that a short lead-in announces ("Buying options:"), not lists after a furniture label', () => {
    const pick = (name: string, shops: string[]): string =>
      `<h3>${name}</h3><p>${name} held up best in our tests: it packed flat, survived three moves and still closed properly at the end.</p><p>Buying options:</p><ul>${shops.map((s) => `<li><a href="https://shop.example/${s.toLowerCase().replace(/ /g, '-')}" target="_blank" rel="nofollow sponsored">${s}</a></li>`).join('')}</ul>`;
    const picks = `${pick('The Stackable Crate', ['Hardware Hub (Stackmaster)', 'Box Depot (Crate Co)', 'Home Store (Stackmaster)'])}${pick('The Wardrobe Box', ['Box Depot (Hangwell)', 'Hardware Hub (Hangwell)', 'Mover Supply (Tallbox)'])}`;
    const related = `<p>Related posts:</p><ul><li><a href="/guides/packing">Packing guide</a></li><li><a href="/guides/storage">Storage units</a></li><li><a href="/guides/insurance">Moving insurance</a></li></ul>`;
    const { markdown } = markdownOf(newsPage(`${shareIcons}${withEnd(`${picks}${related}`)}`, { head: articleHead }));
    expectOnly(
      markdown,
      ['Mover 4:', 'Buying options:', 'Box Depot (Crate Co)', 'Mover Supply (Tallbox)'],
      ['Packing guide', 'Moving insurance', 'Most read'],
    );
  });

  it('keeps a wrapped box whose own sentence announces its list of links', () => {
    const box = `<div class="drawer"><h3>Other local movers</h3><p>While these local movers did not make our top list, they are still worth looking into:</p><ul class="columns"><li><a href="/movers/als-moving">Al's Moving and Storage</a></li><li><a href="/movers/great-movers">City Great Movers</a></li><li><a href="/movers/sheridan">Sheridan Brothers Moving</a></li><li><a href="/movers/roadway">Roadway Moving</a></li><li><a href="/movers/zeromax">Zeromax Moving and Storage</a></li><li><a href="/movers/gentle-giant">Gentle Giant Moving Company</a></li><li><a href="/movers/wayfinder">Wayfinder Moving Services</a></li><li><a href="/movers/dumbo">Dumbo Moving and Storage</a></li><li><a href="/movers/clancy-moving-systems">Clancy Moving Systems</a></li><li><a href="/movers/mabey-moving-and-storage">Mabey Moving and Storage</a></li><li><a href="/movers/piece-of-cake-moving">Piece of Cake Moving</a></li><li><a href="/movers/oz-moving-and-storage">Oz Moving and Storage</a></li><li><a href="/movers/moishe-moving-systems">Moishe Moving Systems</a></li><li><a href="/movers/flat-rate-moving">Flat Rate Moving</a></li><li><a href="/movers/hudson-valley-movers">Hudson Valley Movers</a></li><li><a href="/movers/riverside-van-lines">Riverside Van Lines</a></li></ul></div>`;
    const { markdown } = markdownOf(newsPage(`${shareIcons}${withEnd(box)}`, { head: articleHead }));
    expectOnly(
      markdown,
      ['Mover 4:', 'still worth looking into', "Al's Moving and Storage", 'Dumbo Moving'],
      ['Most read'],
    );
  });
});
