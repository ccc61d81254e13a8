import { describe, expect, it } from 'vitest';

import { canonicalFoldHash, contentHash, foldHash } from './content-hash.js';

describe('foldHash', () => {
  it('is the same for two fetches of a text whose counters and relative times moved', () => {
    const at = (views: string, ago: string, replies: number) =>
      `# A topic\n\nLast active ${ago} ago · ${views} views · ${replies} replies\n\nThe first post of the topic.`;
    expect(foldHash(at('1,204', '5 minutes', 3))).toBe(foldHash(at('1,310', 'an hour', 4)));
    expect(foldHash(at('12', '2 days', 1))).toBe(foldHash(at('1.2k', 'one year', 90)));
    // Change tracking's hash still sees the move.
    expect(contentHash(at('1,204', '5 minutes', 3))).not.toBe(contentHash(at('1,310', 'an hour', 4)));
  });

  it('keeps the numbers that are the content: a price, a page number, a year, a count of items', () => {
    const pairs = [
      ['Price: $40.00', 'Price: $55.00'],
      ['Page 2 of 9', 'Page 3 of 9'],
      ['Released in 2024', 'Released in 2025'],
      ['3 items in stock', '4 items in stock'],
      ['Meet in 5 minutes', 'Meet in 6 minutes'],
    ];
    for (const [one, other] of pairs) expect(foldHash(one!), one).not.toBe(foldHash(other!));
  });
});

describe('canonicalFoldHash', () => {
  it('hashes for the fold only a page naming a canonical', () => {
    const text = '# A topic\n\n12 views. The first post.';
    expect(canonicalFoldHash(text, 'https://example.test/topic')).toBe(foldHash(text));
    expect(canonicalFoldHash(text, undefined)).toBeUndefined();
    expect(canonicalFoldHash(text, '')).toBeUndefined();
  });
});
