/**
 * Hostile documents, each made from a real one (`writers.ts`) with one hostile change: an entry that inflates to
 * hundreds of MiB (its size told or hidden), tens of thousands of entries, an XML part declaring entities, a sheet
 * whose last cell sits a million rows down, ten thousand slides, a spine that lists its chapters again and again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { crc32, constants, deflateRawSync } from 'node:zlib';

import ExcelJS from 'exceljs';
import {
  strFromU8,
  strToU8,
  unzipSync,
  Zip,
  ZipDeflate,
  ZipPassThrough,
  zipSync,
  type ZipInputFile,
  type Zippable,
} from 'fflate';
import pptxgen from 'pptxgenjs';

import { makeDocx, makeEpub } from './writers.js';

const MIB = 1024 * 1024;

/** Rebuilds an archive with its entries (the first ones stored, as `mimetype` must be) and extra raw entries. */
function rezip(entries: Record<string, Uint8Array>, extra: ZipInputFile[] = [], stored: string[] = []): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  for (const [name, data] of Object.entries(entries)) {
    const file = stored.includes(name) ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    zip.add(file);
    file.push(data, true);
  }
  for (const file of extra) zip.add(file);
  for (const file of extra) file.ondata!(null, (file as unknown as { data: Uint8Array<ArrayBuffer> }).data, true);
  zip.end();
  return Buffer.concat(chunks);
}

/**
 * A deflate stream of `mib` MiB of zeros, made fast: one fully flushed block of 1 MiB of zeros (it refers to nothing
 * before it) repeated, then an empty final block.
 */
function zeroStream(mib: number): { data: Uint8Array; crc: number } {
  const zeros = Buffer.alloc(MIB);
  const block = deflateRawSync(zeros, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(zeros, crc);
  return { data: Buffer.concat([...Array.from({ length: mib }, () => block), end]), crc };
}

/**
 * A DOCX with an image part of `mib` MiB of zeros (about 1 KB per MiB in the file). `hideSize`: its headers declare
 * 1 KB, so that only counting while inflating finds it.
 */
export async function zipBombDocx(mib: number, hideSize: boolean): Promise<Uint8Array> {
  const entries = unzipSync(await makeDocx());
  const stream = zeroStream(mib);
  const bomb = {
    filename: 'word/media/image2.png',
    size: hideSize ? 1024 : mib * MIB,
    crc: stream.crc,
    compression: 8,
    data: stream.data,
  } as unknown as ZipInputFile;
  return rezip(entries, [bomb]);
}

/** A DOCX with `count` extra empty entries. */
export async function manyEntriesDocx(count: number): Promise<Uint8Array> {
  const entries: Zippable = unzipSync(await makeDocx());
  for (let i = 0; i < count; i++) entries[`customXml/item${i}.xml`] = new Uint8Array(0);
  return zipSync(entries, { level: 0 });
}

/** A DOCX whose document part declares entities: ten levels of ten (billion laughs), or an external file. */
export async function entityDocx(kind: 'laughs' | 'external'): Promise<Uint8Array> {
  const entries = unzipSync(await makeDocx());
  const xml = strFromU8(entries['word/document.xml']!);
  let dtd: string;
  let use: string;
  if (kind === 'laughs') {
    const levels = ['<!ENTITY lol0 "lol">'];
    for (let i = 1; i <= 9; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
    dtd = `<!DOCTYPE w:document [${levels.join('')}]>`;
    use = '&lol9;';
  } else {
    dtd = '<!DOCTYPE w:document [<!ENTITY secret SYSTEM "file:///etc/passwd">]>';
    use = '&secret;';
  }
  const hostile = xml.replace(/(<\?xml[^>]*\?>)/, `$1${dtd}`).replace('Revenue grew in ', `Revenue grew in ${use} `);
  entries['word/document.xml'] = strToU8(hostile);
  return rezip(entries);
}

/** An XLSX (exceljs) of two cells: A1, and the sheet's very last cell (XFD1048576), with nothing between. */
export async function farCellXlsx(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sparse');
  sheet.getCell('A1').value = 'first';
  sheet.getCell('XFD1048576').value = 'last';
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** An XLSX (exceljs' streaming writer) of `rows` x `columns` cells that are empty strings. */
export async function emptyCellsXlsx(rows: number, columns: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true });
  const sheet = book.addWorksheet('Empty');
  const empty = Array.from({ length: columns }, () => '');
  for (let r = 1; r <= rows; r++) sheet.addRow(empty).commit();
  sheet.commit();
  await book.commit();
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A PPTX (pptxgenjs) of `count` slides of one line each. pptxgenjs took 12.5 s of CPU to write 10,000 (50 MB), so the
 * deck it wrote is kept in the temporary directory, as the tests' compile cache is, under the hash of this function,
 * `count` and pptxgenjs's version, and read from there by the next run.
 */
export async function bigDeck(count: number): Promise<Uint8Array> {
  const pptxgenVersion = readFileSync(new URL('../../node_modules/pptxgenjs/package.json', import.meta.url), 'utf8');
  const key = createHash('sha256').update(`${writeDeck.toString()}\n${count}\n${pptxgenVersion}`).digest('hex');
  const dir = join(tmpdir(), 'crawlkit-test-fixtures');
  const file = join(dir, `deck-${key.slice(0, 16)}.pptx`);
  try {
    return new Uint8Array(readFileSync(file));
  } catch {
    const bytes = await writeDeck(count);
    mkdirSync(dir, { recursive: true });
    // Written aside, then renamed: test processes running at once read a whole deck or none.
    writeFileSync(`${file}.${process.pid}`, bytes);
    renameSync(`${file}.${process.pid}`, file);
    return bytes;
  }
}

async function writeDeck(count: number): Promise<Uint8Array> {
  const PptxGenJS = pptxgen as unknown as typeof pptxgen.default;
  const deck = new PptxGenJS();
  for (let i = 1; i <= count; i++) deck.addSlide().addText(`Slide ${i} of ${count}`, { x: 1, y: 1, w: 8, h: 1 });
  return new Uint8Array((await deck.write({ outputType: 'nodebuffer', compression: true })) as Buffer);
}

/** The EPUB of `writers.ts` whose spine lists its chapters `repeats` times over. */
export async function loopingEpub(repeats: number): Promise<Uint8Array> {
  const entries = unzipSync(await makeEpub());
  const opfName = Object.keys(entries).find((name) => name.endsWith('.opf'))!;
  const opf = strFromU8(entries[opfName]!);
  const refs = opf.match(/<itemref[^>]*>/g)!.join('');
  entries[opfName] = strToU8(
    opf.replace(/<spine([^>]*)>[\s\S]*<\/spine>/, (_m, attributes: string) => {
      return `<spine${attributes}>${refs.repeat(repeats)}</spine>`;
    }),
  );
  const { mimetype, ...rest } = entries;
  return rezip({ mimetype: mimetype!, ...rest }, [], ['mimetype']);
}
