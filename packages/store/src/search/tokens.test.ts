import { describe, expect, it } from 'vitest';

import { textPositions } from './entry.js';
import { phraseHits } from './positions.js';
import { indexedText, terms, words } from './tokens.js';

describe('search terms', () => {
  it('are the same with words remembered across texts as without', () => {
    const texts = [
      'Running runners ran; Café Über 42 naïve',
      'RUNNING fast, café-au-lait, 42nd über naive',
      '',
      '東京都に住んでいます。iPhone用の',
    ];
    const known = new Map<string, string[]>();
    for (const text of texts) expect(terms(text, known)).toEqual(terms(text));
    expect(known.get('Café')).toEqual(terms('Café'));
    const text = { url: 'u', title: 'Run fast', description: 'running fast and running fast', text: texts[0]! };
    const hits = (positions: ReturnType<typeof textPositions>) =>
      phraseHits(terms('running fast').map((term) => positions.get(term)!));
    expect(textPositions(text, known)).toEqual(textPositions(text));
    expect(hits(textPositions(text, known))).toEqual([1, 2, 0]);
  });

  it('read a run of unspaced script as its pairs of characters, then its last one, each where it is written', () => {
    const text = 'Ein iPhone用のケース';
    expect(words(text).map((w) => [w.word, text.slice(w.start, w.end), w.unspaced])).toEqual([
      ['ein', 'Ein', undefined],
      ['iphone', 'iPhone', undefined],
      ['用の', '用の', 'pair'],
      ['のケ', 'のケ', 'pair'],
      ['ケー', 'ケー', 'pair'],
      ['ース', 'ース', 'pair'],
      ['ス', 'ス', 'tail'],
    ]);
    expect(words('猫')).toEqual([{ word: '猫', start: 0, end: 1, unspaced: 'single' }]);
    // Thai: the vowel and tone marks stay with their letter, in the text and in the terms (they spell the word).
    const thai = 'ที่นี่';
    expect(words(thai).map((w) => [w.word, thai.slice(w.start, w.end)])).toEqual([
      ['ที่นี่', 'ที่นี่'],
      ['นี่', 'นี่'],
    ]);
    // Devanagari's vowel signs and virama too; Latin accents, Arabic vowel signs and Hebrew points fold away.
    expect(words('हिन्दी Café مَكْتَبَة שָׁלוֹם').map((w) => w.word)).toEqual(['हिन्दी', 'cafe', 'مكتبة', 'שלום']);
  });

  it('fold Korean syllables and voiced kana whole, half-width kana to full-width', () => {
    // NFKD splits 서 into its letters and で into て and a voicing mark: both come back whole.
    expect(terms('서울에서')).toEqual(['서울', '울에', '에서', '서']);
    expect(terms('でんわ')).toEqual(['でん', 'んわ', 'わ']);
    expect(terms('ｶﾞｲﾄﾞ')).toEqual(terms('ガイド'));
    // Letters with combining marks written apart are one word, as when written precomposed.
    expect(terms('cafe\u0301s')).toEqual(terms('cafés'));
    // What folding brings in that is not a letter parts words, as FTS5 would part them.
    expect(terms('½ ﬁle')).toEqual(['1', '2', 'file']);
  });

  it('are what FTS5 is handed: the text when FTS5 reads the same words in it, else the words', () => {
    expect(indexedText('Crawlers crawl, naïvely — 42.')).toBe('Crawlers crawl, naïvely — 42.');
    expect(indexedText('Crawlers crawl 東京都!')).toBe('crawlers crawl 東京 京都 都');
    expect(indexedText('서울에서 cafe\u0301 ＡＢＣ')).toBe('서울 울에 에서 서 cafe abc');
  });

  it('hand FTS5 the words of a text with any character it reads otherwise, wherever it stands', () => {
    // What the script classes say, character by character (the definition indexedText must keep).
    const otherwise =
      /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}\p{M}\uff00-\uffef]/u;
    const texts = [
      'Updated · July 9', // a middle dot is also Han by its script extensions
      'it\u02bcs', // a modifier apostrophe too
      'Crawlers crawl, naïvely — “42” ½ €',
      'a rare character 𠀀 after', // Han beyond the Basic Multilingual Plane
      'an emoji 😀 and a lone \ud800 surrogate \udc00',
      'e\u0301 written apart',
      'ＡＢＣ',
      'ｶﾞ',
      'x𠀀𠀁y',
      'plain ASCII only',
    ];
    for (const text of texts) {
      const expected = otherwise.test(text)
        ? words(text)
            .map((w) => w.word)
            .join(' ')
        : text;
      expect(indexedText(text), text).toBe(expected);
    }
    expect(indexedText('Updated · July 9')).toBe('updated july 9');
    expect(indexedText('x𠀀𠀁y')).toBe('x 𠀀𠀁 𠀁 y');
  });
});
