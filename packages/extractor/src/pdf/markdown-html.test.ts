import { describe, expect, it } from 'vitest';
import { pdfMarkdownToHtml } from './markdown-html.js';

describe('the HTML of a PDF', () => {
  it('has the headings, nested lists, tables and paragraphs of its markdown, its text escaped', () => {
    const markdown = [
      '# Survey <2024>',
      'Most answers came back & were read.',
      '- First\n- Second\n    3. a step\n    4. the next\n- Third',
      '| Region | Replied |\n| --- | --- |\n| South \\| coast | 86% |',
      'An OCR page\nkeeps its lines',
    ].join('\n\n');
    expect(pdfMarkdownToHtml(markdown)).toBe(
      '<html><body><h1>Survey &lt;2024&gt;</h1><p>Most answers came back &amp; were read.</p>' +
        '<ul><li>First</li><li>Second<ol start="3"><li>a step</li><li>the next</li></ol></li><li>Third</li></ul>' +
        '<table><thead><tr><th>Region</th><th>Replied</th></tr></thead>' +
        '<tbody><tr><td>South | coast</td><td>86%</td></tr></tbody></table>' +
        '<p>An OCR page\nkeeps its lines</p></body></html>',
    );
  });
});
