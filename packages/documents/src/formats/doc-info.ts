/**
 * A Word 97-2003 file's document properties: its `\x05SummaryInformation` stream, an OLE property set ([MS-OLEPS]),
 * read through word-extractor's compound-file reader (which reads the text but not this stream). Title, author, subject
 * (else comments) as `description`, keywords, and the creation and last-save times, under the names a DOCX or ODT
 * gives them.
 */
import { lazyModule } from '@crawlkit/options/lazy-module';
import { textDecoder } from '@crawlkit/options/text-decoder';

import { statedMetadata } from '../stated-metadata.js';
import type { DocumentMetadata } from '../types.js';

const compoundFile = lazyModule(async () => ({
  OleCompoundDoc: (await import('word-extractor/lib/ole-compound-doc.js')).default,
  BufferReader: (await import('word-extractor/lib/buffer-reader.js')).default,
}));

const SUMMARY = '\x05SummaryInformation';
/** Property ids of the summary information ([MS-OLEPS] 2.25.1). */
const TITLE = 2;
const SUBJECT = 3;
const AUTHOR = 4;
const KEYWORDS = 5;
const COMMENTS = 6;
const CREATED = 12;
const SAVED = 13;
const CODEPAGE = 1;
/** Property types: a code-page string, a UTF-16 string, a FILETIME, a 16-bit integer. */
const VT_LPSTR = 30;
const VT_LPWSTR = 31;
const VT_FILETIME = 64;
const VT_I2 = 2;
/** Milliseconds from 1601-01-01 (FILETIME's epoch) to 1970-01-01. */
const FILETIME_EPOCH = 11_644_473_600_000;
/** A summary information stream larger than this is not read (Word's are a few hundred bytes). */
const MAX_STREAM = 64 * 1024;

async function summaryStream(bytes: Uint8Array): Promise<Buffer | undefined> {
  const { OleCompoundDoc, BufferReader } = await compoundFile();
  const doc = await new OleCompoundDoc(
    new BufferReader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
  ).read();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of doc.stream(SUMMARY) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_STREAM) return undefined;
    chunks.push(chunk);
  }
  return size ? Buffer.concat(chunks) : undefined;
}

function decode(bytes: Buffer, codepage: number): string {
  const label = codepage === 65001 ? 'utf-8' : codepage === 1200 ? 'utf-16le' : `windows-${codepage}`;
  try {
    return textDecoder(label).decode(bytes);
  } catch {
    return textDecoder('windows-1252').decode(bytes);
  }
}

/** The properties of the stream's first section, by id, read within its bounds. */
function properties(stream: Buffer): Map<number, string | Date> {
  const found = new Map<number, string | Date>();
  if (stream.length < 48 || stream.readUInt16LE(0) !== 0xfffe) return found;
  const section = stream.readUInt32LE(44);
  if (section + 8 > stream.length) return found;
  const count = Math.min(stream.readUInt32LE(section + 4), (stream.length - section - 8) / 8);
  const at = new Map<number, number>();
  for (let i = 0; i < count; i++)
    at.set(stream.readUInt32LE(section + 8 + i * 8), stream.readUInt32LE(section + 12 + i * 8));
  const offset = (id: number) => {
    const where = at.get(id);
    return where !== undefined && section + where + 8 <= stream.length ? section + where : undefined;
  };
  const cp = offset(CODEPAGE);
  const codepage = cp !== undefined && stream.readUInt32LE(cp) === VT_I2 ? stream.readUInt16LE(cp + 4) : 1252;
  for (const id of [TITLE, SUBJECT, AUTHOR, KEYWORDS, COMMENTS, CREATED, SAVED]) {
    const start = offset(id);
    if (start === undefined) continue;
    const type = stream.readUInt32LE(start);
    if (type === VT_FILETIME) {
      const ticks = stream.readUInt32LE(start + 8) * 2 ** 32 + stream.readUInt32LE(start + 4);
      if (ticks > 0) found.set(id, new Date(ticks / 10_000 - FILETIME_EPOCH));
    } else if (type === VT_LPSTR || type === VT_LPWSTR) {
      const length = stream.readUInt32LE(start + 4) * (type === VT_LPWSTR ? 2 : 1);
      const text = stream.subarray(start + 8, Math.min(stream.length, start + 8 + length));
      const value = (type === VT_LPWSTR ? text.toString('utf16le') : decode(text, codepage)).replace(/\0+$/, '').trim();
      if (value) found.set(id, value);
    }
  }
  return found;
}

/** The file's properties (see above); {} when it has no summary information or it is damaged. */
export async function docMetadata(bytes: Uint8Array): Promise<DocumentMetadata> {
  const stream = await summaryStream(bytes).catch(() => undefined);
  if (!stream) return {};
  const found = properties(stream);
  const text = (id: number) => (typeof found.get(id) === 'string' ? (found.get(id) as string) : undefined);
  const time = (id: number) => {
    const date = found.get(id);
    return date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
  };
  return statedMetadata({
    title: text(TITLE),
    author: text(AUTHOR),
    description: text(SUBJECT) ?? text(COMMENTS),
    keywords: text(KEYWORDS),
    created: time(CREATED),
    modified: time(SAVED),
  });
}
