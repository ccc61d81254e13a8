/**
 * An RTF file's review comments (`\annotation` groups, with `\atnauthor`, and a range `\atrfstart`/`\atrfend` named
 * by `\atnref`, as Word and LibreOffice write them) come after the body as a DOCX's and an ODT's do: a `## Comments`
 * list, author, anchor, text. Before, officeparser was told to ignore them: they were dropped without a word.
 */
import { expect, it } from 'vitest';

import { convertDocument } from '../convert.js';

const RTF = String.raw`{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times New Roman;}}
{\info{\title Supply terms}{\author Legal Ops}}
\pard\plain The supplier delivers by {\*\atrfstart 1}the first of March{\*\atrfend 1}{\*\atnid JD}{\*\atnauthor Jane Doe}\chatn{\*\annotation{\*\atnref 1}{\*\atndate 1234567}\pard\plain {\field{\*\fldinst PAGE}{\fldrslt }}{\chatn } Check this date against the order.\par
\pard\plain Also the clause on {\i penalties}.}, as agreed.\par
\pard\plain Payment is due in thirty days.{\*\atnid RS}{\*\atnauthor Raj Singh}\chatn{\*\annotation{\*\atndate 1234568}\pard\plain Net 30 or net 45? Caf\'e9 terms.}\par
\pard\plain The end.\par
}`;

it('lists an RTF file’s comments after the body, author and anchor, and keeps their text out of it', async () => {
  const read = await convertDocument({ bytes: new TextEncoder().encode(RTF), contentType: 'application/rtf' });
  const [body = '', comments] = read.markdown.split('\n\n## Comments\n\n');
  expect(body).toBe(
    'The supplier delivers by the first of March, as agreed.\n\nPayment is due in thirty days.\n\nThe end.',
  );
  expect(comments).toBe(
    '- **Jane Doe** on “the first of March”: Check this date against the order.\n' +
      '\n  Also the clause on *penalties*.\n' +
      '- **Raj Singh**: Net 30 or net 45? Café terms.',
  );
  expect(read.metadata).toMatchObject({ title: 'Supply terms', author: 'Legal Ops' });
});

it('gives an RTF file without comments no Comments section', async () => {
  const plain = String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0 Arial;}}\pard Only a body.\par}`;
  const read = await convertDocument({ bytes: new TextEncoder().encode(plain), contentType: 'application/rtf' });
  expect(read.markdown).toBe('Only a body.');
});
