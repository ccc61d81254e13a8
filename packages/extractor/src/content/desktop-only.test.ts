// Blocks shown only on large screens (`looksDesktopOnly` in hints.ts): a page builder's desktop sidebar beside the
// story goes; a comparison table shown only on wide screens and the long form of a label in a table stay.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, site, story } from './__fixtures__/news-site.js';

/** A law firm's sidebar as page builders lay it out beside each post, hidden on tablets and phones. */
const desktopSidebar = `<div class="e-con e-child elementor-hidden-tablet elementor-hidden-mobile"><div class="widget"><h3>Contact us</h3>
<p>Hurt at work or on the road? Call us at (555) 010-0199 or fill out this quick form, and one of our lawyers will call you back within a day to talk about your case.</p>
<form method="post"><input name="name" placeholder="Name"><input type="tel" name="phone" placeholder="Phone"><textarea name="message"></textarea><button>Send</button></form></div>
<div class="widget"><h3>Client stories</h3><p>"They answered every call and explained each step of my claim. After the accident I could not work for months, and they got me the settlement I needed to keep my home." Maria, a client since 2021.</p>
<p>"Professional, patient and honest from the first meeting to the last day in court. I would recommend this firm to anyone injured by someone else's carelessness." James, a client since 2019.</p></div></div>`;

/** The story's own paragraphs in the page builder's text widget. */
const storyColumn = `<div class="e-con e-child"><div class="elementor-widget-theme-post-title"><h1>What to do after a fall at the gym</h1></div>
<div class="widget-text"><p>Gyms owe their members a duty of care: floors kept dry, machines serviced, weights racked after use, and staff who warn members of a hazard until it is fixed.</p>
<p>If you are hurt, report the fall to the staff at once and ask for a copy of the incident report. Photograph the spot, the equipment and your injuries before anything is moved.</p>
<p>A membership contract often holds a waiver, but a waiver does not cover the gym's own gross negligence, such as a cable it knew was frayed, in most states.</p>
<p>See a doctor the same day, even when the pain seems mild: some injuries to the back and the head show only later, and the record of the visit ties the injury to the fall.</p>
<p>Keep every receipt, from the pharmacy to the taxi to the clinic, and write down the days you could not work. Insurers ask for both, and months later memory is a poor witness.</p></div></div>`;

/** A law firm's blog post built with a page builder: menu, the post's row of two columns, a footer. */
function lawFirmPost(row: string): string {
  return `<!doctype html><html><head><title>What to do after a fall at the gym | Lane &amp; Ortiz</title>${articleHead}</head>
<body class="single-post elementor-default">${site.cookie}<div class="elementor-location-header"><a href="/"><img src="/logo.png" alt="Lane &amp; Ortiz, injury lawyers"></a><ul class="elementor-nav-menu"><li><a href="/about">About</a></li><li><a href="/practice">Practice areas</a></li><li><a href="/blog">Blog</a></li><li><a href="/contact">Contact</a></li></ul></div>
<main class="site-main"><div class="e-con e-parent">${row}</div></main>
<div class="elementor-location-footer"><p>Lane &amp; Ortiz PLLC, 12 Court Street. Attorney advertising. Past results do not guarantee a similar outcome.</p></div></body></html>`;
}

describe('blocks shown only on large screens', () => {
  it("drop a page builder's desktop sidebar beside the story: a contact pitch and client quotes", () => {
    const { markdown } = markdownOf(lawFirmPost(`${storyColumn}${desktopSidebar}`));
    expectOnly(
      markdown,
      ['Gyms owe their members a duty of care', 'does not cover the gym'],
      ['Call us at (555) 010-0199', 'They answered every call', 'Professional, patient and honest'],
    );
  });

  it("read the other frameworks' words for it (Foundation's `show-for-medium`, Bulma's `is-hidden-mobile`)", () => {
    for (const cls of ['cell show-for-medium', 'column is-hidden-mobile']) {
      const sidebar = desktopSidebar.replace('e-con e-child elementor-hidden-tablet elementor-hidden-mobile', cls);
      const { markdown } = markdownOf(lawFirmPost(`${storyColumn}${sidebar}`));
      expectOnly(markdown, ['Gyms owe their members a duty of care'], ['Call us at (555) 010-0199', 'They answered']);
    }
  });

  it('keep a comparison table shown only on wide screens, and the long names of a table hidden on phones', () => {
    const row = (plan: string, price: string, extra: string): string =>
      `<tr><td>${plan}</td><td>${price}</td><td>${extra}</td></tr>`;
    const table = `<section class="pricing elementor-hidden-mobile"><h2>Compare the plans</h2><table><tr><th>Plan</th><th>Price</th><th>Included</th></tr>${row('Basic', '$299', 'One resume, two rounds of edits')}${row('Rush', '$399', 'One resume within two business days')}${row('Package', '$449', 'Resume, cover letter and thank-you letter')}</table></section>`;
    const standings = `<table class="standings"><tr><th>Team</th><th>W</th><th>L</th></tr><tr><td><a href="/t/det">DET <span class="hide-mobile">Detroit Falcons</span></a></td><td>24</td><td>5</td></tr><tr><td><a href="/t/bos">BOS <span class="hide-mobile">Boston Comets</span></a></td><td>20</td><td>9</td></tr></table>`;
    const article = story.replace('</div></article>', `${table}${standings}</div></article>`);
    const { markdown } = markdownOf(newsPage(article, { head: articleHead }));
    expectOnly(markdown, [
      'The city council voted 7 to 2',
      'Resume, cover letter and thank-you letter',
      '$449',
      'Detroit Falcons',
      'Boston Comets',
    ]);
  });
});
