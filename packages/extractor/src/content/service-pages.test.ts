/** extractMainContent on service and software landing pages: features, pricing notes and customer quotes. */
import { describe, expect, it } from 'vitest';

import { extract, page, prose } from './__fixtures__/synthetic-page.js';

const quotes = [
  [
    'I have used almost every outreach tool on the market, and this is the one our team kept using every day.',
    'Sam Wilson, Managing Director',
  ],
  [
    'It is super easy to use. I have used a lot of software, but this comes with the friendliest interface.',
    'Shivang Singh, CEO',
  ],
  [
    'The overall interface is very clean, and they keep adding features based on customer feedback.',
    'Dana Taggart, Founder',
  ],
];

describe('extractMainContent: service pages', () => {
  it('keeps the customer testimonials of a landing page: they are its content, not reader comments', () => {
    const testimonials = `<section class="testimonials" id="testimonials"><h2>See why thousands of agencies and teams love us</h2><div class="testimonials__grid">${quotes
      .map(
        ([quote, who]) =>
          `<div class="testimonial"><blockquote><p>"${quote}"</p></blockquote><p class="testimonial__author">${who}</p></div>`,
      )
      .join('')}</div></section>`;
    const { text } = extract(
      page(
        `<main><section class="hero"><h1>Find, contact and close your ideal clients</h1><p>Find warm leads, scale email campaigns and reach primary inboxes with one tool.</p><a class="btn" href="/signup">Start for free</a></section><section class="feature"><h2>Scale outreach with unlimited email accounts</h2>${prose('accounts', 4)}</section><section class="feature"><h2>Reach primary inboxes</h2>${prose('deliverability', 4)}</section><section class="feature"><h2>Respond to leads in one inbox</h2>${prose('inbox', 4)}</section><section class="feature"><h2>Track revenue, not vanity metrics</h2>${prose('analytics', 4)}</section>${testimonials}<section class="cta"><h2>Ready to get started?</h2><a class="btn" href="/signup">Book a demo</a></section></main>`,
      ),
    );
    expect(text).toContain('deliverability paragraph 4');
    expect(text).toContain('comes with the friendliest interface');
    expect(text).toContain('Shivang Singh, CEO');
    expect(text).not.toContain('Book a demo');
  });

  it('still drops a testimonials block under a page that declares itself an article (a newsletter issue)', () => {
    const testimonials = `<div class="testimonials"><h3>What members say</h3>${quotes
      .map(([quote, who]) => `<div class="testimonial"><p>"${quote}"</p><p>${who}</p></div>`)
      .join('')}</div>`;
    const { text } = extract(
      page(
        `<article class="newsletter"><h1>Foundational fitness protocol</h1>${prose('fitness', 4)}${testimonials}</article>`,
        {
          head: '<meta property="og:type" content="article">',
        },
      ),
    );
    expect(text).toContain('fitness paragraph 4');
    expect(text).not.toContain('friendliest interface');
  });

  it('keeps text laid over a picture (an "overlay" class names a design, not a pop-up)', () => {
    const location = (name: string, i: number): string =>
      `<div class="location"><div class="location__photo"><img src="/img/${i}.jpg" alt="Shoppers at ${name}"></div><div class="location__details-overlay"><h3>${name}</h3><p>Location ${i}: setting up shop here means a weekend of connecting with established makers and young tastemakers, indoors, with heat and wifi.</p><p>Booking periods run Saturday to Sunday, and spaces start at fifty square feet.</p><a class="btn" href="/apply/${i}">Apply now</a></div></div>`;
    const { text } = extract(
      page(
        `<main><section class="intro"><h1>Local, curated, intentional</h1><p>Since our founding, we have given makers a platform to turn their craft into a business, and shoppers the thrill of finding something original.</p><p>Every market is curated by our team, so each weekend brings a new mix of independent brands, vintage dealers and artists.</p></section><section class="locations"><h2>Sell with us</h2>${['Williamsburg', 'Chelsea', 'Rockefeller Center'].map(location).join('')}</section></main>`,
      ),
    );
    expect(text).toContain('Location 2: setting up shop here');
    expect(text).toContain('Rockefeller Center');
    expect(text).toContain('Since our founding');
  });
});
