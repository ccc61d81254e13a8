// Figure captions: dropped from the main content by default (issue 42), kept as an italic line under the image with
// `markdownCaptions` (`markdownOptions.captions`); a table's `<caption>` is kept either way.
import { describe, expect, it } from 'vitest';

import { extractPage } from '../page.js';

const page =
  '<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main><article><h1>Soil carbon</h1>' +
  '<p>Paragraph one of the study about soil carbon gains across three depths, measured over ten years.</p>' +
  '<figure><img src="/fig1.png" alt="Chart"><figcaption>Fig. 1: Soil carbon gains by <b>depth</b>.</figcaption>' +
  '</figure><p>Paragraph two of the study continues the argument with more text, so that it is the article.</p>' +
  '<table><caption>Table 1: Plots by site.</caption><tr><th>Site</th><th>Plots</th></tr><tr><td>A</td><td>20</td>' +
  '</tr></table></article></main><footer>Footer</footer></body></html>';

const markdown = (onlyMainContent: boolean, markdownCaptions?: boolean) =>
  extractPage(page, {
    url: 'https://journal.test/a',
    onlyMainContent,
    ...(markdownCaptions !== undefined ? { markdownCaptions } : {}),
    formats: { markdown: true },
  }).markdown ?? '';

describe('figure captions', () => {
  it('are dropped from the main content by default, the image and a table caption kept', () => {
    for (const off of [markdown(true), markdown(true, false)]) {
      expect(off).toContain('![Chart](https://journal.test/fig1.png)\n\nParagraph two');
      expect(off).not.toContain('Fig. 1');
      expect(off).toContain('Table 1: Plots by site.\n\n| Site | Plots |');
    }
    // the whole page keeps them, as a plain line
    expect(markdown(false)).toContain('\n\nFig. 1: Soil carbon gains by **depth**.\n\n');
  });

  it('are kept with markdownCaptions, each an italic line under its image', () => {
    for (const onlyMainContent of [true, false]) {
      expect(markdown(onlyMainContent, true)).toContain(
        '![Chart](https://journal.test/fig1.png)\n\n*Fig. 1: Soil carbon gains by **depth**.*\n\nParagraph two',
      );
    }
  });
});
