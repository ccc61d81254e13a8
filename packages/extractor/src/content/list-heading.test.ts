// A list page's one <h1> just above the list, table or grid chosen as the main content comes with it: "New arrivals"
// above the new arrivals. A story's title, a page of several <h1>, a logo heading and a heading over another block
// stay as they were.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extractPage } from '../page.js';
import { switchOffRules } from './trace.js';
import { extract, page, prose } from './__fixtures__/synthetic-page.js';

const items = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<li><a href="/p/${i}">Widget number ${i}</a> A sturdy widget made of oak, with brass fittings and a lifetime warranty.</li>`,
  ).join('');

const rows = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<tr><td>Plan ${i}</td><td>${i * 10} USD a month for ${i} people</td></tr>`).join(
    '',
  );

describe("a list page's heading", () => {
  it('keeps the <h1> right above the list chosen as the content', () => {
    const { text } = extract(page(`<main><h1>New arrivals</h1><ul>${items(12)}</ul></main>`));
    expect(text).toMatch(/^New arrivals\s*Widget number 0/);
    expect(text).toContain('Widget number 11');
  });

  it('keeps it above a table, and with a short intro line between', () => {
    expect(extract(page(`<main><h1>Price table</h1><table>${rows(10)}</table></main>`)).text).toMatch(/^Price table/);
    const { text } = extract(page(`<main><h1>New arrivals</h1><p>Fresh this week.</p><ul>${items(12)}</ul></main>`));
    expect(text).toMatch(/^New arrivals/);
  });

  it('gives the heading first in the markdown, once', () => {
    const html = page(`<main><div class="head"><h1>New arrivals</h1></div><div><ul>${items(12)}</ul></div></main>`);
    const { markdown } = extractPage(html, { url: 'https://shop.test/new', formats: { markdown: true } });
    expect(markdown).toMatch(/^# New arrivals\n/);
    expect(markdown!.match(/New arrivals/g)).toHaveLength(1);
  });

  it('leaves out a story title, a page of several <h1>, a logo heading, and a heading over another block', () => {
    const story = page(
      `<main><div class="story-head"><h1>Oak desks</h1></div><div class="story-body">${prose('oak', 5)}</div></main>`,
    );
    expect(extract(story).text).not.toMatch(/^Oak desks/);
    const two = extract(page(`<main><h1>Shop</h1><h1>New arrivals</h1><ul>${items(12)}</ul></main>`)).text;
    expect(two).not.toContain('New arrivals');
    const logo = extract(page(`<main><h1><a href="/">Widget World</a></h1><ul>${items(12)}</ul></main>`)).text;
    expect(logo).not.toContain('Widget World');
    const caption = `<figure><img src="/w.jpg"><figcaption>${'The workshop at dawn, seen from the yard. '.repeat(10)}</figcaption></figure>`;
    const over = extract(
      page(`<main><div><h1>Our workshop</h1>${caption}</div><div><ul>${items(30)}</ul></div></main>`),
    ).text;
    expect(over).not.toMatch(/^Our workshop/);
  });

  it('names its rule in explain, and is gone with the rule switched off', () => {
    const html = page(`<main><h1>New arrivals</h1><ul>${items(12)}</ul></main>`);
    const blocks = explainPage(html, { url: 'https://shop.test/new' }).blocks;
    expect(blocks.find((b) => b.text === 'New arrivals')).toMatchObject({ verdict: 'kept', rule: 'list-heading' });
    switchOffRules(['list-heading']);
    try {
      expect(extract(html).text).not.toContain('New arrivals');
    } finally {
      switchOffRules([]);
    }
  });
});
