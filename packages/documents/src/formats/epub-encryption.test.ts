/**
 * An EPUB's `META-INF/encryption.xml`: font obfuscation (the IDPF and Adobe algorithms, over font files) leaves the
 * text readable, and the book reads as without it; content documents listed there are encrypted (DRM), and the book
 * is refused with `SCRAPE_DOCUMENT_ENCRYPTED` rather than read as garbage. The EPUBs are `makeEpub()`'s book, zipped
 * again with the file and its parts as each kind of book has them.
 */
import { randomBytes } from 'node:crypto';

import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { expect, it } from 'vitest';

import { makeEpub } from '../__fixtures__/writers.js';
import { convertDocument } from '../convert.js';

const IDPF = 'http://www.idpf.org/2008/embedding';
const ADOBE = 'http://ns.adobe.com/pdf/enc#RC';
const AES = 'http://www.w3.org/2001/04/xmlenc#aes128-cbc';

function encryptionXml(entries: ReadonlyArray<readonly [algorithm: string, uri: string]>): Uint8Array {
  const data = entries.map(
    ([algorithm, uri]) =>
      `<enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/>` +
      `<enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData>`,
  );
  return strToU8(
    '<?xml version="1.0" encoding="UTF-8"?>\n<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" ' +
      `xmlns:enc="http://www.w3.org/2001/04/xmlenc#">${data.join('')}</encryption>`,
  );
}

/** The book again, `change` applied to its parts (the mimetype first and stored, as an EPUB's zip must have it). */
async function rezipped(change: (parts: Record<string, Uint8Array>) => void): Promise<Uint8Array> {
  const parts = unzipSync(await makeEpub());
  change(parts);
  const { mimetype, ...rest } = parts;
  const zippable: Zippable = { mimetype: [mimetype!, { level: 0 }] };
  for (const [name, data] of Object.entries(rest)) zippable[name] = data;
  return zipSync(zippable);
}

const chapters = (parts: Record<string, Uint8Array>): string[] =>
  Object.keys(parts).filter((name) => /\.x?html$/.test(name) && !name.endsWith('toc.xhtml'));

it('reads a book whose fonts alone are obfuscated (IDPF and Adobe) as the same book without encryption.xml', async () => {
  const plain = await convertDocument({ bytes: await makeEpub(), contentType: 'application/epub+zip' });
  const bytes = await rezipped((parts) => {
    parts['OEBPS/fonts/Serif.otf'] = randomBytes(2048);
    parts['OEBPS/fonts/Sans.ttf'] = randomBytes(2048);
    parts['META-INF/encryption.xml'] = encryptionXml([
      [IDPF, 'OEBPS/fonts/Serif.otf'],
      [ADOBE, 'OEBPS/fonts/Sans.ttf'],
    ]);
  });
  const read = await convertDocument({ bytes, contentType: 'application/epub+zip' });
  expect(read.markdown).toBe(plain.markdown);
  expect(read.markdown).toContain('North doubled its sales');
});

it('refuses a book whose chapters are encrypted (DRM) with SCRAPE_DOCUMENT_ENCRYPTED', async () => {
  let listed: string[] = [];
  const bytes = await rezipped((parts) => {
    listed = chapters(parts);
    // What a DRM tool leaves: each chapter's bytes enciphered, listed with a cipher (and a font obfuscated beside).
    for (const name of listed) parts[name] = randomBytes(parts[name]!.length + 16);
    parts['OEBPS/fonts/Serif.otf'] = randomBytes(2048);
    parts['META-INF/encryption.xml'] = encryptionXml([
      [IDPF, 'OEBPS/fonts/Serif.otf'],
      ...listed.map((name) => [AES, name] as const),
    ]);
  });
  expect(listed.length).toBeGreaterThan(0);
  const read = convertDocument({ bytes, contentType: 'application/epub+zip' });
  await expect(read).rejects.toMatchObject({ code: 'SCRAPE_DOCUMENT_ENCRYPTED' });
  await expect(read).rejects.toThrow(
    `The EPUB's text is encrypted (DRM: META-INF/encryption.xml lists ${listed.length} of its content documents`,
  );
});
