// Thread software that wraps each comment's text in a form (an inline editor: old Reddit's `usertext`). Such forms
// are the posts; a sign-up form, a search box or a shop's filter forms are not.
import { describe, expect, it } from 'vitest';

import { expectOnly, markdownOf, site } from './__fixtures__/news-site.js';

const comments = [
  'You are correct. There are no actual hairs in the inner ear, but hair cells.',
  'Well, there is a brand new thing called electrolysis, look into it.',
  'Tinnitus has been with me for ten years now. You get used to it, mostly.',
  'Does this mean the ringing could be treated one day? That would be huge.',
  'We are all just mice, in the end.',
];

/** A link aggregator's thread: the link, then comments whose text sits in `<form class="usertext">`. */
function thread(): string {
  const items = comments
    .map(
      (text, i) =>
        `<div class="thing comment" id="t1_${i}"><div class="entry"><p class="tagline"><a href="/user/u${i}" class="author">user${i}</a> <span class="score">${12 - i} points</span> <time>${i + 2} hours ago</time></p><form action="#" class="usertext warn-on-unload" id="form-t1_${i}"><input type="hidden" name="thing_id" value="t1_${i}"><div class="usertext-body"><div class="md"><p>${text}</p></div></div></form><ul class="flat-list buttons"><li><a href="/c/${i}">permalink</a></li><li><a href="#">reply</a></li></ul></div></div>`,
    )
    .join('');
  return `<!doctype html><html><head><title>Scientists regrow inner-ear hair cells in mice : science</title></head><body>${site.cookie}<div id="header"><a href="/">reddit</a> <a href="/r/science">science</a></div><div class="side"><form action="/search" id="search" role="search"><input name="q" placeholder="search"></form><div class="md"><p>Welcome to r/science! Read the rules before posting.</p></div></div><div class="content" role="main"><div class="sitetable linklisting"><div class="thing link"><p class="title"><a href="https://news.example/ear">Scientists regrow inner-ear hair cells in mice, restoring hearing</a></p><p class="tagline">submitted 14 hours ago by <a href="/user/op">op</a></p></div></div><div class="commentarea"><div class="sitetable nestedlisting">${items}</div></div></div>${site.bottom}</body></html>`;
}

describe('forms that hold posts', () => {
  it('keeps each comment of a thread whose software wraps comment text in a form', () => {
    const { markdown } = markdownOf(thread());
    expectOnly(markdown, comments);
  });

  it("still drops a sign-up form and a shop's filter forms (options without sentences)", () => {
    const filters = ['Connector', 'Length', 'Colour']
      .map(
        (name, i) =>
          `<form class="am-ranges" data-filter="${i}"><strong>${name}</strong><ol><li>USB-C 12 items</li><li>HDMI 2.1 4 items</li><li>DisplayPort 3 items</li></ol></form>`,
      )
      .join('');
    const signup = `<form class="form subscribe"><p>Get our deals first. Sign up for the newsletter and save 10% on your first order.</p><input type="email"><button>Subscribe</button></form>`;
    const products = Array.from(
      { length: 4 },
      (_, i) =>
        `<li class="product-item"><a href="/p/${i}"><img src="/img/${i}.jpg" alt=""></a><a class="product-item-link" href="/p/${i}">Braided USB-C cable ${i + 1} m</a><p>A braided cable of ${i + 1} metres that charges a laptop at 100 W and copies files at 10 Gbit/s.</p><span class="price">$${12 + i}.99</span></li>`,
    ).join('');
    const page = `<!doctype html><html><head><title>Cables</title></head><body>${site.brand}<main><h1>USB-C cables</h1><div class="filters">${filters}</div><ol class="products">${products}</ol>${signup}</main>${site.bottom}</body></html>`;
    const { markdown } = markdownOf(page);
    expectOnly(markdown, ['charges a laptop at 100 W'], ['Sign up for the newsletter', 'HDMI 2.1 4 items']);
    expect(markdown).toContain('Braided USB-C cable 4 m');
  });
});
