import { describe, it } from 'vitest';

import {
  articleHead,
  expectOnly,
  markdownOf,
  newsPage,
  shareIcons,
  storyEndingWith,
} from './__fixtures__/news-site.js';

/** An in-text SMS sign-up box as deal and news sites place them: a pitch, a phone form, a consent notice. */
const smsWidget = `<div class="inline-box"><div class="row"><div class="header-300">Deals worth knowing about</div><div class="header-600">Our editors' picks of the day's deals, sent to your phone by text twice a week.</div></div>
<form class="f"><input type="tel" inputmode="numeric" placeholder="Enter phone number" aria-label="Phone number"><input type="hidden" name="source" value="incontent"><button type="submit"><span>Loading...</span><span>Sign me up</span></button></form>
<div class="small">Up to two automated messages a week from the Courier at the number provided. Message and data rates may apply. Text STOP to end, HELP for help.</div></div>`;

/** The same with an email field and a name field, as newsletter boxes are built. */
const emailWidget = `<section class="box"><p class="pitch">The Harbour Weekly: our reporters' pick of the week's local stories, every Friday morning.</p>
<form action="/newsletters/join" method="post"><label for="nl-name">First name</label><input id="nl-name" name="first_name"><label for="nl-email">Your email</label><input id="nl-email" name="EMAIL" type="text" placeholder="you@example.com"><button>Join</button></form>
<p class="legal">We will never share your address. Unsubscribe at any time from the link in every issue.</p></section>`;

describe('sign-up widgets in the text', () => {
  it('drop an SMS sign-up box inside a story whole: pitch, form and consent notice', () => {
    const { markdown } = markdownOf(newsPage(storyEndingWith(smsWidget), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 3 of the report', 'The city council voted 7 to 2'],
      ['Deals worth knowing about', 'sent to your phone by text', 'Up to two automated messages'],
    );
  });

  it('drop a newsletter box between two paragraphs, whose email field is only named so', () => {
    const story = storyEndingWith(
      `${emailWidget}<p>The lanes will be reviewed after a year, the council said in its closing statement.</p>`,
    );
    const { markdown } = markdownOf(newsPage(`${shareIcons}${story}`, { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 0 of the report', 'reviewed after a year'],
      ["reporters' pick of the week", 'Unsubscribe at any time'],
    );
  });

  it('keep a form that asks for a message too (a letter to the editor), and its introduction', () => {
    const letters = `<div class="letters"><p class="intro">Write to the editor about this story: letters of up to 250 words may be published in Saturday's paper, with your name and town.</p>
<form action="/letters" method="post"><input type="email" name="email" placeholder="Email"><textarea name="letter"></textarea><button>Send</button></form></div>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(letters), { head: articleHead }));
    expectOnly(markdown, ['Paragraph 3 of the report', 'Write to the editor about this story']);
  });

  it("keep a page's head that holds its title and a trial sign-up (a service page's hero)", () => {
    const hero = `<div class="hero"><h1>Route planning for delivery fleets</h1><p>Plan a day of deliveries for forty vans in under a minute, with traffic, time windows and driver breaks.</p><form><input type="email" placeholder="Work email"><button>Start free trial</button></form></div>`;
    const features = Array.from(
      { length: 4 },
      (_, i) =>
        `<h2>Feature ${i + 1}</h2><p>Feature ${i + 1} of the planner: dispatchers change a route while the vans are out, and every driver's app shows the new order of stops at once, with the reason for the change.</p>`,
    ).join('');
    const { markdown } = markdownOf(newsPage(`<main>${hero}<div class="features">${features}</div></main>`));
    expectOnly(markdown, ['Plan a day of deliveries for forty vans', 'Feature 4 of the planner']);
  });

  it("drop a form's status messages, which page builders print beside the form and hide until it is sent", () => {
    const contact = `<div class="w-form"><form name="tips"><label for="tip">Your tip for the newsroom</label><textarea id="tip" name="tip"></textarea><input type="submit" value="Send"></form><div class="w-form-done"><div>Thank you! Your submission has been received!</div></div><div class="w-form-fail"><div>Oops! Something went wrong while submitting the form.</div></div></div>`;
    const poll = `<div class="poll"><div class="poll-q">Do you cycle to work?</div><div class="poll-done">✅ Thank you for completing the survey!</div></div>`;
    const story = storyEndingWith(
      `${contact}<p>Paragraph A of the story: residents spoke for two hours.</p>${poll}<p>The lanes will be reviewed after a year, the council said in its closing statement.</p>`,
    );
    const { markdown } = markdownOf(newsPage(story, { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph A of the story', 'reviewed after a year'],
      ['submission has been received', 'Something went wrong', 'completing the survey'],
    );
  });

  it('keep thanks that are part of the text', () => {
    const story = storyEndingWith(
      `<p>Thank you for your interest in the scheme, the councillor told the residents who came to the meeting.</p>`,
    );
    const { markdown } = markdownOf(newsPage(story, { head: articleHead }));
    expectOnly(markdown, ['Thank you for your interest in the scheme']);
  });
});
