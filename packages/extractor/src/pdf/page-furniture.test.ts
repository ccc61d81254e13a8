/**
 * A report's running header and page numbers, and words hyphenated across lines, in the markdown of a real PDF
 * (fixtures/make-pdf.ts: one line of text per PDF line, read back by pdf.js).
 */
import { describe, expect, it } from 'vitest';

import { makePdf } from '../../../../fixtures/make-pdf.ts';
import { extractPdf } from './extract-pdf.js';
import { dropRunningLines } from './page-furniture.js';

const CHAPTERS = [1, 1, 2, 3];
const DAYS = [3, 9, 4, 12];

/** Four pages of a report: its title above each, a chapter heading, a body, the page number below. */
const report = () =>
  makePdf(
    'Quarterly report',
    CHAPTERS.map((chapter, i) => [
      'Acme Corp - Quarterly Report 2024',
      `Chapter ${chapter}`,
      `Page text ${i + 1}: the auditors found that the in-`,
      `formation for region ${i + 1} was complete. The North-`,
      `East office closed its books on day ${DAYS[i]}.`,
      `Page ${i + 1} of 4`,
    ]),
  );

describe('running headers, page numbers and hyphenation in PDFs', () => {
  it('keeps the running title once, drops the page numbers, keeps the chapters, joins hyphenated words', async () => {
    const pdf = await extractPdf(report());
    expect(pdf.markdown).toBe(
      [1, 2, 3, 4]
        .map(
          (page) =>
            (page === 1 ? 'Acme Corp - Quarterly Report 2024\n\n' : '') +
            `Chapter ${CHAPTERS[page - 1]}\n\n` +
            `Page text ${page}: the auditors found that the information for region ${page} was complete. The ` +
            `North-East office closed its books on day ${DAYS[page - 1]}.`,
        )
        .join('\n\n'),
    );
    // each page's own text keeps its furniture (OCR decides on it), hyphens joined
    expect(pdf.pageMarkdown[1]).toMatch(
      /^Acme Corp - Quarterly Report 2024\n\nChapter 1\n\n.*information.*North-East.*\n\nPage 2 of 4$/s,
    );
  });

  it('leaves short documents and lines repeated on few pages alone', () => {
    const two = ['Title\nBody one\nPage 1', 'Title\nBody two\nPage 2'];
    expect(dropRunningLines(two)).toEqual(two);
    // on 2 pages of 4: not running; on 3: kept where it first appears
    const pages = ['Draft\nOne a\nOne b', 'Two a\nTwo b\nTwo c', 'Three a\nThree b\nThree c', 'Draft\nFour a\nFour b'];
    expect(dropRunningLines(pages)).toEqual(pages);
    pages[2] = `Draft\n${pages[2]}`;
    expect(dropRunningLines(pages)).toEqual([pages[0], pages[1], 'Three a\nThree b\nThree c', 'Four a\nFour b']);
    // a numbered line atop every page of a form, its number following the page, is content: not a page number
    const form = [1, 2, 3, 4].map((n) => `Question ${n}\nWhat was spent in week ${n * 7}?\nTotal ${n * n}`);
    expect(dropRunningLines(form)).toEqual(form);
    // a Bates stamp at the foot of each page of a production set, its number following the page, goes
    const bates = [1, 2, 3, 4].map(
      (n) => `Exhibit ${n}\nThe witness said ${n * 3} things.\nBates ACME-${String(n + 40).padStart(6, '0')}`,
    );
    expect(dropRunningLines(bates)).toEqual([1, 2, 3, 4].map((n) => `Exhibit ${n}\nThe witness said ${n * 3} things.`));
    const words = ['alpha', 'beta', 'gamma', 'delta'];
    const numbered = words.map((w, i) => `${w} a\n${w} b\n${w} c\n- ${i + 2} -`);
    expect(dropRunningLines(numbered)).toEqual(words.map((w) => `${w} a\n${w} b\n${w} c`));
  });

  it('drops running headers that name their chapter and page numbers printed on some pages only', async () => {
    // 8 pages, two chapters of 4: each opens on a page of its own without header or number; the header names the
    // chapter and the page ("Chapter 2: Setup 7"), under half the pages each; a bare number ends pages 2, 4 and 7
    const chapter = (page: number) => (page <= 4 ? 'Chapter 1: Install' : 'Chapter 2: Setup');
    const words = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel'];
    const pages = words.map((word, i) => {
      const page = i + 1;
      const opens = page === 1 || page === 5;
      return [
        ...(opens ? [] : [`${chapter(page)} ${page}`]),
        opens ? chapter(page) : page === 6 ? 'The service listens on port 8080' : `${word} opens here.`,
        `${word} goes on and ends.`,
        `${word} closes it.`,
        ...([2, 4, 7].includes(page) ? [`${page}`] : []),
      ];
    });
    const { markdown } = await extractPdf(makePdf('Manual', pages));
    expect(markdown).not.toMatch(/Chapter \d: \w+ \d/);
    expect(markdown).not.toMatch(/^\d$/m);
    // the chapters' own first lines, and a first line that ends in a number, are content
    expect(markdown).toContain('Chapter 1: Install');
    expect(markdown).toContain('Chapter 2: Setup');
    expect(markdown).toContain('The service listens on port 8080');
    for (const word of words) expect(markdown).toMatch(new RegExp(`${word} goes on and ends.\\s+${word} closes it.`));
    for (const page of [2, 3, 4, 7, 8]) expect(markdown).toContain(`${words[page - 1]} opens here.`);
  });
});
