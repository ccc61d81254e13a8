import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { matchExpression } from '../sqlite/search.js';
import { MAX_QUERY_TERMS, parseSearchQuery } from './query.js';

const parsed = (q: string) => {
  const result = parseSearchQuery(q);
  if (!result.ok) throw new Error(result.error);
  return result.terms;
};

describe('parseSearchQuery', () => {
  it('reads loose words (stop words dropped), phrases, prefixes and exclusions', () => {
    const terms = parsed('how to install "proxy server" crawl* -cache -"dead letter"');
    expect(terms.any).toEqual([
      { word: 'install', term: 'instal', prefix: false },
      { word: 'crawl', term: 'crawl', prefix: true },
    ]);
    expect(terms.phrases.map((p) => p.map((t) => t.word))).toEqual([['proxy', 'server']]);
    expect(terms.none.map((p) => p.map((t) => t.word))).toEqual([['cache'], ['dead', 'letter']]);
  });

  it('keeps stop words when they are all there is, folds case and diacritics', () => {
    expect(parsed('The').any.map((t) => t.word)).toEqual(['the']);
    expect(parsed('Café RÉSUMÉ').any.map((t) => t.word)).toEqual(['cafe', 'resume']);
  });

  it('reads a run of unspaced script as its pairs: loose bare, a phrase quoted, a prefix for one character', () => {
    const words = (q: string) => {
      const terms = parsed(q);
      return {
        any: terms.any.map((t) => `${t.word}${t.prefix ? '*' : ''}`),
        phrases: terms.phrases.map((p) => p.map((t) => t.word).join(' ')),
        none: terms.none.map((p) => p.map((t) => t.word).join(' ')),
      };
    };
    expect(words('東京都 crawler')).toEqual({ any: ['東京', '京都', 'crawler'], phrases: [], none: [] });
    expect(words('"東京都" "東京 大阪"')).toEqual({ any: [], phrases: ['東京 京都', '東京 京 大阪'], none: [] });
    expect(words('猫 "犬" 東京*')).toEqual({ any: ['猫*', '犬*', '東京*'], phrases: [], none: [] });
    expect(words('crawler -東京都 -猫')).toEqual({ any: ['crawler'], phrases: [], none: ['東京 京都', '猫'] });
  });

  it('says what to fix: empty, punctuation only, only exclusions, too long, too many words', () => {
    const error = (q: string) => {
      const result = parseSearchQuery(q);
      return result.ok ? undefined : result.error;
    };
    expect(error('')).toMatch(/empty/);
    expect(error('*** ()')).toMatch(/no word/);
    expect(error('-proxy')).toMatch(/no word/);
    expect(error('x'.repeat(10_000))).toMatch(/at most 1000/);
    expect(error(Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => `w${i}`).join(' '))).toMatch(/at most 32/);
    // A Chinese question of 38 characters is 37 pairs: the error says why it counts more words than it seems to hold.
    expect(error('请问如何使用网络爬虫自动抓取网页内容并保存到本地的数据库中然后再进行全文检索')).toMatch(
      /has 37 words.*each pair of characters counts as a word/,
    );
  });

  it('never hands FTS5 anything but quoted words and its own operators', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (q) => {
        const result = parseSearchQuery(q);
        if (!result.ok) return true;
        const expression = matchExpression(result.terms);
        // Remove the quoted words: what is left is operators, parentheses, prefix stars and spaces.
        const rest = expression.replace(/"[^"]*"\*?/g, '');
        return /^[\s()ANDORNOT]*$/.test(rest);
      }),
      { numRuns: 2_000 },
    );
  });
});
