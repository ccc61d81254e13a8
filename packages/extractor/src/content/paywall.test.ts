// Paywalls inside a story: the story stops at a "breaker" (a heading that the rest is for subscribers, plans and
// prices, a sign-in line), or a newsletter post ends with an upgrade pitch. Neither is the article.
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

describe('paywall prompts', () => {
  it('drops a paywall breaker: its heading, the plans under it and the sign-in line', () => {
    const breaker = `<div class="restricted-content-breaker"><div class="breaker-bar"><p class="restricted-text">Courier+ Exclusive Story</p><p class="restricted-login">Already have an account? <a href="/login/">Log in</a></p></div><img src="/img/plus-bg.png" alt="Courier+"><div class="breaker-wrapper"><h2>This article is exclusive to Courier+ subscribers</h2><h3>Unlock this article — plus in-depth analysis, newsletters, premium events, and news alerts.</h3><div class="cards"><div class="card"><p class="card-title">Monthly</p><p class="price">$39 per month</p><p>Billed monthly, cancel at any time.</p><a class="btn" href="/subscribe/monthly">Get started</a></div><div class="card"><p class="card-title">Annual</p><p class="price">$399 per year</p><p>Savings start at 15% against the monthly plan.</p><a class="btn" href="/subscribe/annual">Get started</a></div></div><p>To read the rest of this story subscribe to Courier+.</p></div></div>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(breaker), { head: articleHead }));
    expectOnly(
      markdown,
      ['Work is expected to start in May', 'Paragraph 3 of the report'],
      [
        'Already have an account',
        'exclusive to Courier+ subscribers',
        'Unlock this article',
        '$39 per month',
        'Savings start at 15%',
        'To read the rest of this story',
      ],
    );
  });

  it('drops a newsletter post\'s upgrade pitch and its "What is included in a subscription?" perks', () => {
    const pitch = `<p><strong>Become a <a href="https://letter.example/subscribe">paid subscriber to The Planning Letter</a> to unlock this piece and learn about:</strong></p><ol><li>The knowledge hub setup that means never starting a planning doc from scratch</li><li>Why your next quarterly plan should start with a voice memo</li></ol><div class="paywall-perks"><h3>What is included in a subscription?</h3><p>Daily insights from planners and early access to our tools</p><ul><li>Front-row access to every new guide</li><li>Playbooks and templates for your team</li><li>A bundle of planning software</li></ul></div>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(pitch), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 3 of the report'],
      [
        'paid subscriber',
        'What is included in a subscription',
        'Playbooks and templates',
        'bundle of planning software',
      ],
    );
  });

  it('keeps sentences of the story that only mention accounts and subscribers', () => {
    const text = `<p>If you already have an account with the city's parking service, make sure your permit is linked to the new zone before May. The paper's subscribers asked the council about it at the meeting.</p>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(text), { head: articleHead }));
    expect(markdown).toContain('If you already have an account with the city');
  });
});
