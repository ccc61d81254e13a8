/**
 * The deadline inside officeparser's Word reader: it checks its signal between blocks, in synchronous loops where a
 * timer-driven signal could not fire, so a long Word file ran whole past the deadline and was returned.
 */
import { Document, Packer, Paragraph } from 'docx';
import { describe, expect, it } from 'vitest';

import { convertDocument } from './convert.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A Word file of `count` paragraphs (a long report). */
async function longDocx(count: number): Promise<Uint8Array> {
  const text = (i: number) => `Paragraph ${i} of the long report, with enough words in it to be read as one.`;
  const children = Array.from({ length: count }, (_, i) => new Paragraph(text(i)));
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

describe('the deadline of a Word file', () => {
  it('stops reading a long Word file once its deadline passes, with SCRAPE_DOCUMENT_TIMEOUT', async () => {
    // officeparser loaded first, so that the time measured below is the conversion's
    await convertDocument({ bytes: await longDocx(10), contentType: DOCX });
    const bytes = await longDocx(10_000);
    // The fastest of three: one run slowed by a load spike gave a deadline that the next, quicker run beat (a CI pair).
    let took = Infinity;
    for (let run = 0; run < 3; run++) {
      const start = Date.now();
      const whole = await convertDocument({ bytes, contentType: DOCX });
      took = Math.min(took, Date.now() - start);
      expect(whole.markdown).toContain('Paragraph 9999 of the long report');
    }
    // a quarter of the whole conversion: past the zip's asynchronous read, inside the synchronous reading of the
    // paragraphs and the writing of the markdown, where the deadline was never seen
    const deadline = Date.now() + Math.round(took / 4);
    await expect(convertDocument({ bytes, contentType: DOCX }, { deadline })).rejects.toMatchObject({
      code: 'SCRAPE_DOCUMENT_TIMEOUT',
      message: expect.stringMatching(/^Converting the DOCX document took longer than its `deadline` allowed/),
    });
  });
});
