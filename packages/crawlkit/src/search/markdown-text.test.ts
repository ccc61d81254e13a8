import { describe, expect, it } from 'vitest';

import { markdownText } from './markdown-text.js';

describe('markdownText', () => {
  it('keeps what a reader reads, line by line, without link targets, images, marks or fences', () => {
    const markdown = [
      '# Install',
      '',
      'Run **pnpm add** [crawlkit](https://npm.im/crawlkit "pkg") ![logo](/logo.png) <br> now.',
      '',
      '```bash',
      'pnpm add crawlkit',
      '```',
      '',
      '[ref]: https://example.com',
    ].join('\n');
    expect(markdownText(markdown)).toBe('Install\n\nRun pnpm add crawlkit logo  now.\n\npnpm add crawlkit');
  });

  it("keeps a footnote's text and drops its references (a Word file's footnotes are searchable)", () => {
    const markdown = 'Revenue grew.[^1] See [^note-2].\n\n[^1]: Figures are unaudited.\n[^note-2]: Ask finance.';
    expect(markdownText(markdown)).toBe('Revenue grew. See .\n\nFigures are unaudited.\nAsk finance.');
  });
});
