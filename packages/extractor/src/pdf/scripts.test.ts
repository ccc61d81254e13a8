/**
 * Text of scripts other than Latin in a PDF (a Type0 font with a ToUnicode CMap, written in the test): Chinese and
 * Japanese lines of a paragraph join without a space, Korean with one; Hebrew and Arabic, which pdf.js gives a word
 * at a time in the page's left-to-right order, read in their own order, a number or Latin name among them kept whole.
 */
import { describe, expect, it } from 'vitest';

import { type0Pdf } from './__fixtures__/type0-pdf.js';
import { readingOrder } from './bidi.js';
import { extractPdf } from './extract-pdf.js';

describe('PDF text in other scripts', () => {
  it('joins the lines of a Chinese or Japanese paragraph without a space, and Korean ones with one', async () => {
    const { markdown } = await extractPdf(
      type0Pdf([
        { text: '東京都の人口は約千四百万人で' },
        { text: 'す。日本語の文書を検索します。' },
        { text: '中文文本测试：北京欢迎你' },
        { text: '한국어 문서입니다' },
        { text: '두 번째 줄' },
      ]),
    );
    expect(markdown).toBe(
      '東京都の人口は約千四百万人です。日本語の文書を検索します。中文文本测试：北京欢迎你 한국어 문서입니다 두 번째 줄',
    );
  });

  it('reads Hebrew and Arabic lines in their order, not word by word from the left', async () => {
    const { markdown } = await extractPdf(
      type0Pdf(
        [
          { text: 'שלום עולם, זה מסמך בעברית', visual: true },
          { text: 'مرحبا بالعالم هذا مستند عربي', visual: true },
        ],
        60,
      ),
    );
    expect(markdown).toBe('שלום עולם, זה מסמך בעברית\n\nمرحبا بالعالم هذا مستند عربي');
  });

  it('keeps a left-to-right stretch among right-to-left words in its own order', () => {
    // on the page, left to right: היום, New, York, ב, גרתי (a sentence that reads "גרתי ב New York היום")
    const pieces = [
      { text: 'היום', rtl: true, space: false },
      { text: 'New', rtl: false, space: true },
      { text: 'York', rtl: false, space: true },
      { text: 'ב', rtl: true, space: true },
      { text: 'גרתי', rtl: true, space: true },
    ];
    expect(readingOrder(pieces)).toBe('גרתי ב New York היום');
  });
});
