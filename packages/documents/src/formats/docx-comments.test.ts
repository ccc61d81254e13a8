/** A Word file's review comments are kept after the body, and its unaccepted tracked changes counted. */
import {
  CommentRangeEnd,
  CommentRangeStart,
  CommentReference,
  DeletedTextRun,
  Document,
  InsertedTextRun,
  Packer,
  Paragraph,
  TextRun,
} from 'docx';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { convertDocument } from '../convert.js';

const when = new Date('2026-11-02T10:00:00Z');

async function reviewed(): Promise<Uint8Array> {
  const doc = new Document({
    comments: {
      children: [
        {
          id: 0,
          author: 'Alice Counsel',
          date: when,
          children: [new Paragraph('Is 30 days enough? Client wants 60.')],
        },
        {
          id: 1,
          author: 'Bob *Partner*',
          date: when,
          children: [new Paragraph('Check the governing law.'), new Paragraph('And the tax clauses.')],
        },
        { id: 2, author: '', date: when, children: [new Paragraph('Unsigned remark.')] },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({
            children: [
              new TextRun('The Buyer shall pay within '),
              new CommentRangeStart(0),
              new TextRun('thirty days'),
              new TextRun({ text: ' of completion', bold: true }),
              new CommentRangeEnd(0),
              new TextRun({ children: [new CommentReference(0)] }),
              new TextRun('.'),
            ],
          }),
          new Paragraph({
            children: [
              new CommentRangeStart(1),
              new TextRun('Governed by '),
              new DeletedTextRun({ id: 10, author: 'Bob', date: '2026-11-03T09:00:00Z', text: 'French' }),
              new InsertedTextRun({ id: 11, author: 'Bob', date: '2026-11-03T09:00:00Z', text: 'English' }),
              new TextRun(' law.'),
              new CommentRangeEnd(1),
              new TextRun({ children: [new CommentReference(1)] }),
            ],
          }),
          new Paragraph({
            children: [new TextRun('Closing words.'), new TextRun({ children: [new CommentReference(2)] })],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

describe('a DOCX with review comments and tracked changes', () => {
  it('renders its comments after the body, each with its author and the text it is anchored to', async () => {
    const converted = await convertDocument({ bytes: await reviewed(), contentType: '' });
    expect(converted.markdown).toBe(
      [
        'The Buyer shall pay within thirty days **of completion**.',
        '',
        'Governed by English law.',
        '',
        'Closing words.',
        '',
        '## Comments',
        '',
        '- **Alice Counsel** on “thirty days of completion”: Is 30 days enough? Client wants 60.',
        '- **Bob \\*Partner\\*** on “Governed by English law.”: Check the governing law.',
        '',
        '  And the tax clauses.',
        '- Unsigned remark.',
      ].join('\n'),
    );
  });

  it('reads tracked changes as accepted and counts them in metadata', async () => {
    const converted = await convertDocument({ bytes: await reviewed(), contentType: '' });
    expect(converted.markdown).not.toContain('French');
    expect(converted.metadata.trackedChanges).toBe(2);
  });

  it('adds nothing to a DOCX without comments or changes', async () => {
    const bytes = new Uint8Array(
      await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Plain.')] }] })),
    );
    const converted = await convertDocument({ bytes, contentType: '' });
    expect(converted.markdown).toBe('Plain.');
    expect(converted.metadata).not.toHaveProperty('trackedChanges');
  });
});

/** The committed LibreOffice ODT with two comments as LibreOffice writes them: one over a range, one at a point. */
function commentedOdt(): Uint8Array {
  const files = unzipSync(new Uint8Array(readFileSync(new URL('../__fixtures__/report.odt', import.meta.url))));
  const content = strFromU8(files['content.xml']!);
  const body = content.indexOf('<office:text');
  const first = content.indexOf('>', content.indexOf('<text:p ', body)) + 1;
  const close = content.indexOf('</text:p>', first);
  const annotation = (name: string, author: string, paragraphs: string[]) =>
    `<office:annotation${name ? ` office:name="${name}"` : ''}><dc:creator>${author}</dc:creator>` +
    `<dc:date>2026-11-02T10:00:00</dc:date>${paragraphs.map((p) => `<text:p>${p}</text:p>`).join('')}</office:annotation>`;
  const edited =
    content.slice(0, first) +
    annotation('__Annotation__1', 'Alice Counsel', ['Is the title right?', 'Ask the client.']) +
    content.slice(first, close) +
    '<office:annotation-end office:name="__Annotation__1"/>' +
    annotation('', 'Bob', ['A remark &amp; no range.']) +
    content.slice(close);
  return zipSync({ ...files, mimetype: [files.mimetype!, { level: 0 }], 'content.xml': strToU8(edited) });
}

describe('an ODT with comments (office:annotation)', () => {
  it('renders them after the body as a DOCX does: author, anchor, text', async () => {
    const converted = await convertDocument({ bytes: commentedOdt(), contentType: '' });
    const section = converted.markdown.slice(converted.markdown.indexOf('## Comments'));
    expect(section).toBe(
      [
        '## Comments',
        '',
        '- **Alice Counsel** on “Quarterly Report”: Is the title right?',
        '',
        '  Ask the client.',
        '- **Bob**: A remark & no range.',
      ].join('\n'),
    );
    expect(converted.markdown.indexOf('## Comments')).toBeGreaterThan(0);
  });
});
