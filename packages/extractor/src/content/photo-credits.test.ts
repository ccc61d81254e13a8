// Photo credits that news and blog themes print under a picture without a <figcaption>: "Photo: Jane Roe/Getty
// Images", "Image credit: © Stockagency.com/Name", "Jane Roe via Getty Images". They describe the picture, not the story.
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const closing = `<p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;

/** A picture in the story's body with its credit in a plain paragraph or span, as many themes print it. */
function pictureWith(credit: string): string {
  return `<div class="image-block"><img src="/img/harbour-road.jpg" alt="Cyclists on Harbour Road at dusk"><p class="small">${credit}</p></div>`;
}

describe('photo credits in the text', () => {
  it('drops a credit line under a picture ("Photo: …/Getty Images", "Illustration: …"), with a caption before "… via Getty Images"', () => {
    const body = `${pictureWith('Photo: Sam Lee/Getty Images')}<p>Paragraph A of the story: residents spoke for two hours.</p>${pictureWith('Illustration: Chris Roe')}${pictureWith('<span>Ferry terminal, Harbour Road.</span> <em>Dana Kim via Getty Images</em>')}${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph A of the story', 'reviewed after a year'],
      ['Sam Lee', 'Chris Roe', 'Dana Kim', 'Ferry terminal'],
    );
  });

  it('keeps spec labels, code and sentences that start the same way', () => {
    const body = `<ul><li><strong>Graphics:</strong> integrated, shared memory</li><li><strong>Display:</strong> 14-inch, 1920 by 1200</li></ul>
<pre><code>services:
  web:
    image: nginx:1.25</code></pre><p>Photo by photo, the exhibition in the old mill tells the story of the harbour since 1900, from the first ferry to the flood of 1953, the curator said.</p>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(markdown, ['integrated, shared memory', 'image: nginx:1.25', 'Photo by photo, the exhibition']);
    expect(markdown).toContain('Graphics:');
  });
});
