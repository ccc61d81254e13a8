/** extractMainContent on a forum reply that quotes another post in an `<aside>` (Discourse's `aside.quote`). */
import { describe, expect, it } from 'vitest';

import { extract, page, prose } from './__fixtures__/synthetic-page.js';

describe('extractMainContent: quotations in an aside', () => {
  const post = (i: number, body: string) =>
    `<div class="topic-body crawler-post" id="post_${i}"><div class="crawler-post-meta"><span class="creator"><a href="/u/u${i}">user${i}</a></span> <time>2024-01-0${i}</time></div><div class="post">${body}</div></div>`;
  const thread = (quote: string) =>
    page(
      `<div id="main-outlet" role="main"><h1>Install foo</h1>${post(1, prose('first', 2))}${post(2, `${quote}${prose('reply', 1)}`)}${post(3, prose('third', 1))}</div>`,
      {
        after:
          '<aside class="sidebar"><h3>Related</h3><blockquote>Read this too</blockquote><a href="/t/1">One</a></aside>',
      },
    );

  it('keeps the post a reply quotes, with whom it quotes (Discourse)', () => {
    const quote = `<aside class="quote" data-username="user1" data-post="1"><div class="title">user1:</div><blockquote><p>The text of the first post, quoted in the reply.</p></blockquote></aside>`;
    const { text } = extract(thread(quote));
    // Before: the aside was page chrome, and the reply lost what it answers.
    expect(text).toContain('The text of the first post, quoted in the reply.');
    expect(text).toContain('user1:');
    expect(text).toContain('reply paragraph 1');
    // A sidebar holding a quote beside links is still chrome.
    expect(text).not.toContain('Read this too');
  });

  it('drops an aside whose text beside the quotation is more than a title', () => {
    const box = `<aside class="box"><div>${'A long promotional block of text beside the quote. '.repeat(3)}</div><blockquote>Subscribe today</blockquote></aside>`;
    const { text } = extract(thread(box));
    expect(text).not.toContain('Subscribe today');
  });

  it('drops a pull quote, whose attribution follows the quotation', () => {
    const pull = `<aside class="pull"><blockquote>Words repeated from the story.</blockquote><p>A. Writer</p></aside>`;
    const { text } = extract(thread(pull));
    expect(text).not.toContain('Words repeated from the story.');
  });
});
