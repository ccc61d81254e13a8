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
});
