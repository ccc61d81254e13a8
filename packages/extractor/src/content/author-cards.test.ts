// Author cards without class words after a story (`author-cards.ts`): a magazine's CSS-in-JS card of headshot, linked
// name, role and bio goes; a paragraph of the story that links a staff member's name stays.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

/** A writer's card as CSS-in-JS sites render it: hashed class names only. */
const card = `<section class="css-1k33gg5 e13lia4i20"><div class="css-1e54vvi"><span class="css-3mrz81"><img src="/profile/jane.jpg" alt="Headshot of Jane Doe"></span>
<div class="css-gorqpr"><a class="css-9x1" href="https://courier.example/author/2429/jane-doe/">Jane Doe</a><span>Contributing Writer</span></div>
<div class="css-1eilbtc"><p>Jane Doe is a writer and editor who covers city hall, transport and housing. Before joining the Courier she reported for two regional dailies, and she rides the Harbour Road route to work most days.</p></div></div></section>`;

/** The reader comments the site shows after the card. */
const comments = `<div class="comments"><h3>Comments (1)</h3><div class="c"><b>Mo</b><p>Finally! I cycle this road every day.</p></div></div>`;

describe('author cards without class words', () => {
  it("drop the writer's card after the story: headshot, linked name, role and a bio that opens with the name", () => {
    const { markdown } = markdownOf(newsPage(storyEndingWith(`${card}${comments}`), { head: articleHead }));
    expectOnly(
      markdown,
      ['The city council voted 7 to 2', 'Paragraph 3 of the report'],
      ['Contributing Writer', 'Jane Doe is a writer and editor', 'rides the Harbour Road route'],
    );
  });

  it("keep a paragraph of the story that links a staff member's name, even twice", () => {
    const tester = `<p>Our cycling reporter <a href="https://courier.example/author/sam-lee/">Sam Lee</a> has ridden the planned route twice this month. Sam Lee timed the trip from the ferry to the mill at eleven minutes.</p>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(tester), { head: articleHead }));
    expectOnly(markdown, ['Paragraph 3 of the report', 'has ridden the planned route', 'eleven minutes']);
  });
});
