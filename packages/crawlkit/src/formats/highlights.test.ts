import { describe, expect, it } from 'vitest';

import { bm25, highlights, highlightsText, passagesOf, terms } from './highlights.js';

const PAGE = `# Sharpening a Hand Plane

A hand plane only cuts well when its blade is sharp. Most beginners skip the back of the blade.
Flatten the back of the blade on a coarse stone before anything else.

## Grits

| Stone | Grit | Use |
| --- | --- | --- |
| Coarse | 1000 | Remove nicks |
| Fine | 8000 | Polish the edge |

- Hone the bevel at 30 degrees with a honing guide.
- Strop on leather to finish.

\`\`\`sh
plane --sharpen --angle 30
\`\`\`

The weather was pleasant that afternoon, and the shop smelled of pine.`;

describe('passagesOf', () => {
  it('reads sentences written without spaces, and finds a word inside them', () => {
    const page =
      '# 网络爬虫\n\n网络爬虫可以自动抓取网页内容。我住在北京，每天坐地铁上班。首页\n\n東京都に住んでいます。';
    expect(passagesOf(page).map((p) => p.text)).toEqual([
      '网络爬虫可以自动抓取网页内容。',
      '我住在北京，每天坐地铁上班。',
      '東京都に住んでいます。',
    ]);
    expect(highlights(page, '地铁').map((p) => p.text)).toEqual(['我住在北京，每天坐地铁上班。']);
    // The query's last character alone (`京`) matches no passage by itself: 东京 is not 北京.
    expect(highlights(page, '东京').map((p) => p.text)).toEqual([]);
  });

  it('splits sentences, keeps code blocks and table rows whole, and skips headings and table rules', () => {
    const texts = passagesOf(PAGE).map((p) => p.text);
    expect(texts).toContain('A hand plane only cuts well when its blade is sharp.');
    expect(texts).toContain('Most beginners skip the back of the blade.');
    expect(texts).toContain('| Fine | 8000 | Polish the edge |');
    expect(texts).toContain('```sh\nplane --sharpen --angle 30\n```');
    expect(texts).toContain('Hone the bevel at 30 degrees with a honing guide.');
    expect(texts.some((t) => t.startsWith('#'))).toBe(false);
    expect(texts.some((t) => t.includes('---'))).toBe(false);
  });

  it('numbers the passages in page order', () => {
    const passages = passagesOf(PAGE);
    const positions = passages.map((p) => PAGE.indexOf(p.text.split('\n')[0]!));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(passages.map((p) => p.index)).toEqual([...passages.map((p) => p.index)].sort((a, b) => a - b));
  });
});

describe('terms', () => {
  it('lower-cases, drops stop words and stems', () => {
    expect(terms('How do I sharpen the Blades?')).toEqual(['sharpen', 'blade']);
    expect(terms('sharpening')).toEqual(terms('sharpen'));
  });
});

describe('bm25', () => {
  it('ranks a rare matching term above a common one and favours shorter documents', () => {
    const docs = [['blade', 'stone'], ['blade'], ['blade', 'pine', 'shop', 'weather', 'afternoon'], ['pine']];
    const [a, b, c, d] = bm25(docs, ['blade']);
    expect(b).toBeGreaterThan(c!);
    expect(a).toBeGreaterThan(0);
    expect(d).toBe(0);
    const [rare] = bm25(docs, ['stone']);
    const [common] = bm25(docs, ['blade']);
    expect(rare).toBeGreaterThan(common!);
  });
});

describe('highlights', () => {
  it('returns the verbatim passages that answer the query, in page order', () => {
    const found = highlights(PAGE, 'What grit polishes the edge?');
    const text = highlightsText(found);
    expect(text).toContain('| Fine | 8000 | Polish the edge |');
    expect(text).not.toContain('weather');
    for (const p of found) expect(PAGE).toContain(p.text);
    expect(found.map((p) => p.index)).toEqual([...found.map((p) => p.index)].sort((a, b) => a - b));
  });

  it('finds a code block and a list item', () => {
    const found = highlights(PAGE, 'honing angle command', 2).map((p) => p.text);
    expect(found).toEqual([
      'Hone the bevel at 30 degrees with a honing guide.',
      '```sh\nplane --sharpen --angle 30\n```',
    ]);
  });

  it('keeps at most the limit, and nothing that shares no term with the query', () => {
    expect(highlights(PAGE, 'blade', 2)).toHaveLength(2);
    expect(highlights(PAGE, 'submarine torpedo')).toEqual([]);
    expect(highlights(PAGE, 'the of and')).toEqual([]);
  });
});
