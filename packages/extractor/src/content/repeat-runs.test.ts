// Repeated text: a page rendered twice (a mobile copy of the story, a sticky product block) loses its copy, but the
// boilerplate that every item of a list shows (a coupon's terms, a webcam's credit, a card's feature line) stays in
// each item, as the reader sees it there.
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, site, story } from './__fixtures__/news-site.js';

/** How many times `text` occurs in `markdown`. */
const count = (markdown: string, text: string): number => markdown.split(text).length - 1;

describe('repeated blocks: copies and item boilerplate', () => {
  it("keeps a credit line that every webcam of a park's page repeats", () => {
    const cams = ['Yosemite Falls', 'Half Dome', 'El Capitan', 'Tuolumne Meadows'].map(
      (name, i) =>
        `<div class="webcam-item"><span class="label">Webcam</span><h2>${name}</h2><img src="/cams/${i}.jpg" alt="${name} webcam"><p>View ${i}: this camera looks at ${name} from the valley floor and refreshes every minute in daylight.</p><p>This webcam image is provided courtesy of the Valley Conservancy. For permission to feature its webcams, fill out our <a href="/forms/webcam">usage agreement</a>.</p></div>`,
    );
    const page = `<!doctype html><html><head><title>Webcams - Valley National Park</title></head><body>${site.cookie}${site.brand}<main><div class="page"><h1>Webcams</h1><p>Check conditions in the park before you arrive: these cameras show the weather, the snow and the crowds in real time.</p>${cams.join('')}</div></main>${site.bottom}</body></html>`;
    const { markdown } = markdownOf(page);
    expect(count(markdown, 'provided courtesy of the Valley Conservancy')).toBe(4);
    expectOnly(markdown, ['View 0:', 'View 3:']);
  });

  it('keeps the terms under each coupon of a coupon page', () => {
    const coupons = [
      ['$25 off', 'a ceiling fan install'],
      ['$50 off', 'a panel upgrade'],
      ['10% off', 'any repair'],
      ['$40 off', 'an EV charger install'],
    ].map(
      ([off, what], i) =>
        `<li><a href="/coupons/${i}"><img src="/img/coupon${i}.jpg" alt=""></a><div class="desc"><a href="/coupons/${i}"><h3>${off} ${what}</h3></a><p><strong>${off} when you book ${what} this month</strong>.</p><p>Must be presented before start of work.</p><p>Not valid with other offers or coupons, some restrictions may apply.</p></div></li>`,
    );
    const page = `<!doctype html><html><head><title>Coupons</title></head><body>${site.brand}<main><h1>Electrician coupons</h1><p>Save on your next electrical job with these offers from our licensed team, valid across the metro area.</p><ul class="coupon-grid">${coupons.join('')}</ul></main>${site.bottom}</body></html>`;
    const { markdown } = markdownOf(page);
    expect(count(markdown, 'Not valid with other offers')).toBe(4);
    expect(count(markdown, 'Must be presented before start of work')).toBe(4);
  });

  it('still drops a second rendering of the story (a mobile copy with the same paragraphs in a row)', () => {
    const body = story.match(/<div class="txt">([\s\S]*?)<\/div><\/article>/)![1]!;
    const doubled = story.replace('</div></article>', `</div><div class="mobile-only txt">${body}</div></article>`);
    const { markdown } = markdownOf(newsPage(doubled, { head: articleHead }));
    expect(count(markdown, 'The city council voted 7 to 2')).toBe(1);
    expect(count(markdown, 'Work is expected to start in May')).toBe(1);
  });

  it('drops a call to action that every item repeats ("Compare used car deals with …")', () => {
    const cars = ['BMW iX3', 'Kia EV3', 'Renault 5', 'Skoda Elroq'].map(
      (car, i) =>
        `<div class="pick"><h2>${i + 1}. ${car}</h2><p>The ${car} is the pick for its class: ${300 + i * 20} miles of range, a roomy cabin and fast charging for the money.</p><p><a class="deal" href="https://deals.example/${i}">Compare used car deals with DealFinder.co.uk</a></p></div>`,
    );
    const article = `<article class="story"><h1>The best electric cars of 2026</h1><div class="txt"><p>We drove every new electric car on sale this year, on the same roads and in the same weather, to find the ones worth your money.</p>${cars.join('')}</div></article>`;
    const { markdown } = markdownOf(newsPage(article, { head: articleHead }));
    expect(count(markdown, 'Compare used car deals')).toBe(1);
    expectOnly(markdown, ['The Skoda Elroq is the pick']);
  });

  it('drops a product block rendered twice when the first sits in a chain of single wrappers', () => {
    // every wrapper of the chain has the block's measure; none of them is a copy, the second rendering is
    const lines = [
      'Trail Runner 2 by Northpeak',
      'Price: $129.00 with tax',
      'Rated 4.6 of 5 by 812 runners',
      'Free returns for 60 days',
      'Ships in 2 days',
    ];
    const block = lines.map((l) => `<div class="line">${l}</div>`).join('');
    const chain = `<div class="w1"><div class="w2"><div class="w3"><div class="buy">${block}</div></div></div></div>`;
    const page = `<!doctype html><html><head><title>Trail Runner 2</title></head><body>${site.brand}<main><h1>Trail Runner 2</h1><p>A light trail shoe with a grippy sole, a roomy toe box and a cushioned ride for long days on rough ground.</p>${chain}<p>Its upper is a recycled mesh that drains fast after a creek crossing and dries overnight at camp.</p><div class="buy-again">${block}</div></main>${site.bottom}</body></html>`;
    const { markdown } = markdownOf(page);
    expect(count(markdown, 'Price: $129.00')).toBe(1);
    expect(count(markdown, 'Ships in 2 days')).toBe(1);
    expectOnly(markdown, ['A light trail shoe', 'Its upper is a recycled mesh']);
  });
});
