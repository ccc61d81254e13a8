// Numbered notes after the story (`numbered-notes.ts`): small print opening with a superscript number goes; a note
// beside the first half of the text, an asterisk aside, a list of cited sources, footnotes that the text links to and a
// page made of notes stay.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extract, page, prose } from './__fixtures__/synthetic-page.js';

/** Small print as a fund page ends: paragraphs opening with `<sup>n</sup>` (`more`: a longer note). */
const smallPrint = (n: number, more = ''): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p><sup>${i + 1}</sup>Average expense ratio ${i + 1} of the funds in the category, as reported at the end of the year.${more}</p>`,
  ).join('');

const post = (body: string): string => page(`<article><h1>What index funds cost</h1>${body}</article>`);

describe('extractMainContent: numbered notes after the story', () => {
  it('drops small print opening with a superscript number after the story', () => {
    const { text } = extract(post(`${prose('story', 5)}${smallPrint(2)}`));
    expect(text).toContain('story paragraph 5');
    expect(text).not.toContain('Average expense ratio');
  });

  it('reaches the number through an inline wrapper', () => {
    const wrapped = `<p><span><sup>1</sup> Average expense ratio of the funds, as reported at the end of the year.</span></p>`;
    expect(extract(post(`${prose('story', 5)}${wrapped}`)).text).not.toContain('Average expense ratio');
  });

  it('keeps a note in the first half, an asterisk aside, a list of sources and linked footnotes', () => {
    expect(extract(post(`${smallPrint(1)}${prose('story', 5)}`)).text).toContain('Average expense ratio 1');
    const aside = `<p><sup>*</sup>Prices were checked on the day the story was written, in the shops named above.</p>`;
    expect(extract(post(`${prose('story', 5)}${aside}`)).text).toContain('Prices were checked');
    const sources = `<ul><li><sup>1</sup> Threat Report 2025, the yearly survey of the agency, page 12.</li></ul>`;
    expect(extract(post(`${prose('story', 5)}${sources}`)).text).toContain('Threat Report 2025');
    const linked = `<ol><li id="fn-1"><p>The settings of the machine that ran the benchmark, in full. <a href="#ref-1">↩</a></p></li></ol>`;
    expect(extract(post(`${prose('story', 5)}${linked}`)).text).toContain('The settings of the machine');
  });

  it("keeps a numbered paragraph that a mark in the text links to (a paper's reference, a linked footnote)", () => {
    const cited = `<p>The method follows the earlier survey.<sup><a href="#ref1">1</a></sup></p>`;
    const reference = `<p id="ref1"><sup>1</sup> Smith, J. (2020). A survey of the method, its data and its limits. Journal, 4(2).</p>`;
    const text = extract(post(`${prose('story', 5)}${cited}${reference}${smallPrint(1)}`)).text;
    expect(text).toContain('Smith, J. (2020)');
    expect(text).not.toContain('Average expense ratio');
    const anchored = `<p><a name="ref1"></a><sup>1</sup> Smith, J. (2020). A survey of the method, its data and its limits.</p>`;
    expect(extract(post(`${prose('story', 5)}${cited}${anchored}`)).text).toContain('Smith, J. (2020)');
  });

  it('keeps notes that are most of the page', () => {
    const more = ' The notes hold the argument: each runs to a few sentences, longer than the story they annotate.';
    expect(extract(post(`${prose('story', 1)}${smallPrint(3, more)}`)).text).toContain('Average expense ratio 3');
  });

  it('names its rule in explain', () => {
    const html = post(`${prose('story', 5)}${smallPrint(1)}`);
    const block = explainPage(html, { url: 'https://funds.example/index-funds' }).blocks.find((b) =>
      b.text.includes('Average expense ratio'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'numbered-note', module: 'numbered-notes.ts' });
  });
});
