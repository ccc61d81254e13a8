// Headings that announce links ("Table of contents", "In this article", "Related resources"): their section is the
// links, and where prose without links starts again, the story goes on.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, shareIcons, site } from './__fixtures__/news-site.js';

const title = `<h1>Council approves new bike lanes on Harbour Road</h1><div class="meta">By <a href="/staff/jane-doe">Jane Doe</a> | 9 March 2026, 14:05</div>`;

const comments = `<div class="reader-comments"><h3>Reader comments (2)</h3><div class="c"><b>Pat</b><p>About time, the junction by the mill is a nightmare on a bike.</p></div><div class="c"><b>Sam</b><p>Where are the delivery vans supposed to stop now?</p></div></div>`;

/** The report's paragraphs, each a sentence or two of the council story. */
const report = (from: number, to: number): string =>
  Array.from(
    { length: to - from },
    (_, i) =>
      `<p>Part ${from + i} of the report: the transport committee heard from residents, shop owners and the ferry company over three meetings, and the final design moved the lanes away from the bus stops and the school gates.</p>`,
  ).join('');

describe('sections under headings that announce links', () => {
  it('drops a table of contents and keeps the story that goes on after it under the same heading', () => {
    const toc = `<h2>In this article</h2><ul><li><a href="#vote">The vote</a></li><li><a href="#works">The works</a></li><li><a href="#parking">Parking</a></li><li><a href="#next">What happens next</a></li></ul>`;
    const article = `<article class="story">${title}${shareIcons}<div class="txt"><p>The city council voted 7 to 2 on Monday evening to add protected bike lanes along Harbour Road, between the ferry terminal and the old mill.</p>${report(1, 7)}${toc}<p>Work is expected to start in May and last about ten weeks. Parking on the north side of the road will be removed while the lanes are built, the council said.</p>${report(7, 10)}</div></article>${comments}`;
    const { markdown } = markdownOf(newsPage(article, { head: articleHead }));
    expectOnly(
      markdown,
      ['voted 7 to 2', 'Part 6 of the report', 'Work is expected to start in May', 'Part 9 of the report'],
      ['In this article', 'What happens next', 'Most read', 'Reader comments', 'junction by the mill'],
    );
  });

  it('drops the linked titles under "Related resources" and keeps the table and text after them', () => {
    const related = `<h3>Related resources</h3><p><a href="/charts/cycling-2025">Cycling charts: collisions on every main road in Riverside since 2020</a></p><p><a href="/local/2026/02/11/mill-road-bus-lanes">Bus lanes on Mill Road open next month after two years of works</a></p><p><a href="/opinion/cycling-city">Why Riverside could be the next cycling city</a></p>`;
    const table = `<p>Here is the full table of collisions by road for the last three years.</p><table><tr><th>Road</th><th>Collisions</th></tr><tr><td>Harbour Road</td><td>11</td></tr><tr><td>Mill Lane</td><td>4</td></tr><tr><td>Station Street</td><td>2</td></tr></table><p>The council will publish the final drawings in April, after the consultation closes, and residents can comment on them until the end of the month.</p>`;
    const article = `<article class="story">${title}${shareIcons}<div class="txt">${report(1, 4)}${related}${table}</div></article>${comments}`;
    const { markdown } = markdownOf(newsPage(article, { head: articleHead }));
    expectOnly(
      markdown,
      ['Part 3 of the report', 'full table of collisions', 'Station Street', 'publish the final drawings in April'],
      ['Related resources', 'Cycling charts', 'Bus lanes on Mill Road', 'next cycling city', 'Reader comments'],
    );
  });

  it('still drops a "More from" box whose blurb is followed by more teaser links', () => {
    const more = `<h2>More from the Courier</h2><p>The Riverside Courier has covered the city's transport for 120 years, from the first trams to the new ferry.</p><ul><li><a href="/local/ferry">New ferry timetable explained in five charts</a></li><li><a href="/local/trams">When Riverside had trams: a look back</a></li><li><a href="/local/parking">Parking fees to rise in the city centre from April</a></li></ul><p><a href="/local/bridge">Bridge repairs: what drivers need to know</a></p>`;
    const article = `<article class="story">${title}${shareIcons}<div class="txt">${report(1, 6)}${more}</div></article>`;
    const page = newsPage(article, { head: articleHead }).replace(site.bottom, `${comments}${site.bottom}`);
    const { markdown } = markdownOf(page);
    expectOnly(
      markdown,
      ['Part 1 of the report', 'Part 5 of the report'],
      ['More from the Courier', 'covered the city', 'New ferry timetable', 'Bridge repairs'],
    );
  });
});
