// A story's picture inside a lightbox button stays; icon and thumbnail buttons without text still go.
import { describe, expect, it } from 'vitest';

import { articleHead, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const button = (img: string, attrs = 'aria-haspopup="true" aria-expanded="false"') =>
  `<button ${attrs}>${img}</button>`;
const story = (html: string) =>
  markdownOf(
    newsPage(storyEndingWith(`<p>The new lanes open on Monday along the harbour front.</p>${html}`), {
      head: articleHead,
    }),
  ).markdown;

describe('figure buttons', () => {
  it('keeps a figure-sized picture in a text-less button, with its alt text', () => {
    const md = story(button('<img alt="Map of the new cycle lanes" width="1600" height="900" src="/img/lanes.png">'));
    expect(md).toContain('![Map of the new cycle lanes]');
  });

  it('drops a button around a small picture (a thumbnail or an icon)', () => {
    const md = story(button('<img alt="Picture 1 of 6" width="140" src="/img/thumb.jpg">', 'class="thumb"'));
    expect(md).not.toContain('Picture 1 of 6');
  });

  it('drops a button around a picture without a declared size', () => {
    const md = story(button('<img alt="Open the menu" src="/img/menu.svg">'));
    expect(md).not.toContain('Open the menu');
  });

  it('drops a button around two pictures (a slider, not a figure)', () => {
    const two = '<img alt="Slide one" width="1600" src="/a.png"><img alt="Slide two" width="1600" src="/b.png">';
    expect(story(button(two))).not.toContain('Slide one');
  });
});
