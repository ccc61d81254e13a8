/**
 * The structure of a PDF's markdown (paragraphs, headings, lists, columns) read back by pdf.js from
 * PDFs laid out by pdf-lib (`__fixtures__/write-pdf.ts`): each test's PDF shows one rule.
 */
import { describe, expect, it } from 'vitest';
import { writePdf } from './__fixtures__/write-pdf.js';
import { extractPdf } from './extract-pdf.js';

const ONE =
  'The survey covered every branch of the company in the first half of the year, from the largest office in the ' +
  'capital to the smallest depot in the hills, and asked each of them the same questions.';
const TWO =
  'Most answers came back within a week. The few that did not were chased by telephone, and by the end of the ' +
  'month only two branches had still not replied to the survey at all.';
const THREE =
  'The results below are grouped by region, then by the size of the branch, so that like is compared with like ' +
  'throughout the report and no region is judged by the standards of another.';

describe('PDF paragraphs', () => {
  it('joins wrapped lines into paragraphs, split at an indent, a wider gap and a line ended short', async () => {
    const pdf = await writePdf([
      {
        blocks: [
          { text: ONE, indent: 18 },
          { text: TWO, indent: 18 },
          { text: THREE, gap: 8 },
          { text: 'Each region is a chapter.' },
          { text: 'Its branches follow in turn.' },
        ],
      },
    ]);
    expect((await extractPdf(pdf)).markdown).toBe(
      [ONE, TWO, THREE, 'Each region is a chapter.', 'Its branches follow in turn.'].join('\n\n'),
    );
  });

  it('keeps a line that opens with a number inside the sentence it continues', async () => {
    const pdf = await writePdf([
      {
        blocks: [
          { text: 'The readings were taken at every one of the sites each hour from' },
          { text: '8. to 18. hours, and twice at night.' },
        ],
      },
    ]);
    expect((await extractPdf(pdf)).markdown).toBe(
      'The readings were taken at every one of the sites each hour from 8. to 18. hours, and twice at night.',
    );
  });
});

describe('PDF headings', () => {
  it('ranks headings by size above the body, bold body-size lines last, a wrapped heading kept whole', async () => {
    const pdf = await writePdf([
      {
        blocks: [
          { text: 'Annual Survey of Branches', size: 24, bold: true },
          { text: 'Method', size: 16, bold: true, gap: 12 },
          { text: ONE, gap: 4 },
          { text: 'Who was asked', size: 12, bold: true, gap: 8 },
          { text: TWO, gap: 4 },
          { text: 'Branches that closed', bold: true, gap: 8 },
          { text: THREE, gap: 2 },
          { text: 'Warning.', bold: true, gap: 8 },
          { text: 'Results by region and by the size of each branch', size: 16, bold: true, width: 260, gap: 12 },
          { text: TWO, gap: 4 },
        ],
      },
    ]);
    expect((await extractPdf(pdf)).markdown).toBe(
      [
        '# Annual Survey of Branches',
        '## Method',
        ONE,
        '### Who was asked',
        TWO,
        '#### Branches that closed',
        THREE,
        'Warning.',
        '## Results by region and by the size of each branch',
        TWO,
      ].join('\n\n'),
    );
  });

  it("takes headings from the outline, at its entries' depth, on the page each entry opens", async () => {
    const pdf = await writePdf(
      [
        { blocks: [{ text: 'Contents', size: 16 }, { text: 'Introduction', gap: 8 }, { text: 'Background' }] },
        { blocks: [{ text: ONE }] },
        { blocks: [{ text: 'Introduction' }, { text: TWO, gap: 6 }, { text: 'Background', gap: 8 }, { text: THREE }] },
      ],
      { outline: [{ title: 'Introduction', page: 3, children: [{ title: 'Background', page: 3 }] }] },
    );
    expect((await extractPdf(pdf)).markdown).toBe(
      ['# Contents', 'Introduction', 'Background', ONE, '# Introduction', TWO, '## Background', THREE].join('\n\n'),
    );
  });
});

describe('PDF lists', () => {
  it('makes bulleted and numbered lines list items, their wrapped lines joined, nested by indent', async () => {
    const item = 'a bulleted item long enough to wrap onto a second line of the page, hanging under its first word';
    const pdf = await writePdf([
      {
        blocks: [
          { text: 'The branches were asked:' },
          { text: `• First, ${item}`, x: 12, hang: 8, gap: 4 },
          { text: '• Second, a short one', x: 12, hang: 8 },
          { text: '1. a numbered step inside it', x: 30, hang: 14 },
          { text: '2) and the step after it', x: 30, hang: 14 },
          { text: '• Third, back at the first level', x: 12, hang: 8 },
          { text: THREE, gap: 6 },
        ],
      },
    ]);
    expect((await extractPdf(pdf)).markdown).toBe(
      [
        'The branches were asked:',
        [
          `- First, ${item}`,
          '- Second, a short one',
          '    1. a numbered step inside it',
          '    2. and the step after it',
          '- Third, back at the first level',
        ].join('\n'),
        THREE,
      ].join('\n\n'),
    );
  });
});

describe('PDF columns', () => {
  const page = (acrossColumns: boolean) => ({
    head: [{ text: 'Two columns', size: 18, bold: true }],
    columns: 2 as const,
    acrossColumns,
    blocks: [{ text: `${ONE} ${TWO} ${THREE} ${ONE}` }, { text: TWO, gap: 8 }, { text: THREE, gap: 8 }],
  });
  const expected = ['# Two columns', `${ONE} ${TWO} ${THREE} ${ONE}`, TWO, THREE].join('\n\n');

  it('reads a page of two columns column by column, a paragraph going on into the next column', async () => {
    expect((await extractPdf(await writePdf([page(false)]))).markdown).toBe(expected);
    // drawn row by row across both columns: pdf.js gives the lines in that order, read here column by column
    expect((await extractPdf(await writePdf([page(true)]))).markdown).toBe(expected);
  });

  it('reads labels and their values row by row when they are not columns of running text', async () => {
    const rows = ['Name', 'Region', 'Opened'].map((label, i) => ({ text: label, gap: i ? 6 : 0 }));
    const values = ['Hill Depot', 'North', 'March 2019'].map((value) => ({ text: value, x: 300, gap: -12 }));
    const pdf = await writePdf([{ blocks: rows.flatMap((row, i) => [row, values[i]!]) }]);
    expect((await extractPdf(pdf)).markdown).toBe(
      '| Name | Hill Depot |\n| --- | --- |\n| Region | North |\n| Opened | March 2019 |',
    );
  });
});

describe('PDF tables', () => {
  it('makes aligned rows of cells a table, numbers aligned right; a lone row is a line of text', async () => {
    const row = (cells: string[], gap = 0) =>
      cells.map((text, i) => ({ text, x: [0, 160, 320 - 5 * text.length][i]!, gap: i ? -12 : gap }));
    const pdf = await writePdf([
      {
        blocks: [
          { text: 'Branches by region, with the share that replied.' },
          ...row(['Region', 'Branches', 'Replied'], 8),
          ...row(['North', '12', '100%']),
          ...row(['South | coast', '7', '86%']),
          ...row(['Total', '19', '95%']),
          { text: THREE, gap: 8 },
          ...row(['Signed', 'The survey team'], 8),
        ],
      },
    ]);
    expect((await extractPdf(pdf)).markdown).toBe(
      [
        'Branches by region, with the share that replied.',
        '| Region | Branches | Replied |\n| --- | --- | --- |\n| North | 12 | 100% |\n| South \\| coast | 7 | 86% |\n' +
          '| Total | 19 | 95% |',
        THREE,
        'Signed The survey team',
      ].join('\n\n'),
    );
  });
});
