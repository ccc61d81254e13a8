// Appeals to the reader at the end of blog posts, podcasts' show notes and non-profit newsrooms' stories: follow,
// share, join the group, get notified, download the e-book, fund the newsroom. None of it is the article.
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

describe('reader appeals after the story', () => {
  it("drops a blog's appeals: stay connected, notifications, share it, spread the word, free e-book", () => {
    const end = `<p><strong>Would you like to receive notifications about new posts?</strong></p><div class="wp-block-group"><p>If you like it, please share it!</p><p><strong>Help me spread the word about this blog!</strong></p><h3>Get the FREE eBook!</h3><p>Stay connected with me! <a href="https://instagram.example/courier">@riversidecourier</a></p></div>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(end), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 3 of the report'],
      ['receive notifications', 'please share it', 'spread the word', 'FREE eBook', 'Stay connected with me'],
    );
  });

  it('drops "This story is funded by readers like you", "Share your story" and a community-group invitation', () => {
    const end = `<h2>This story is funded by readers like you</h2><p><strong>SHARE YOUR STORY</strong></p><p>Join our Riverside Cyclists Facebook group to swap routes and repair tips.</p>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(end), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 3 of the report'],
      ['funded by readers like you', 'SHARE YOUR STORY', 'Facebook group'],
    );
  });

  it('keeps sentences of the story that use the same words', () => {
    const end = `<p>Residents who want to share their story with the committee can write to the clerk before April, and the council said it would stay in touch with the shop owners while the lanes are built.</p>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(end), { head: articleHead }));
    expect(markdown).toContain('Residents who want to share their story');
  });

  it('drops a prompt to add the site as a preferred source on Google, linked or not', () => {
    const body = `<div class="trusted-source"><a href="https://www.google.example/preferences/source?q=courier.example">Add <img src="/i/logo-white.png" alt="icon"> as a preferred source on Google</a></div><p>Paragraph A of the story: residents spoke for two hours.</p><div class="pbanner"><div class="pbanner-text">Add <img src="/i/logo.png" alt="Courier logo"> as a Reliable and Trusted News Source</div><div class="pbanner-button"><a href="https://www.google.example/preferences/source?q=courier">Add Now!</a></div></div><p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph A of the story', 'reviewed after a year'],
      ['preferred source', 'Trusted News Source'],
    );
  });
});
