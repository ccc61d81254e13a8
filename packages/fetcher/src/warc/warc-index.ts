import { createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';

import type { WARCRecord } from 'warcio';

import { urlKey } from '../url-fragment.js';
import { ENGINE_HEADER, PAGE_HEADER, RETRY_LATER_HEADER } from './warc-headers.js';
import { warcio } from './warcio.js';

/** Where one recorded response lies in its file. */
export interface IndexedResponse {
  file: string;
  /** Byte offset of the record (of its gzip member in a compressed file). */
  offset: number;
  /** Bytes of the record on disk, from `offset`. */
  length: number;
  /** The engine that recorded it (`WARC-Crawlkit-Engine`: `http`, `browser`), when crawlkit did. */
  engine?: string;
  /** A 429/503 crawlkit recorded (`WARC-Crawlkit-Retry-Later`): a later response of the URL takes its place. */
  retryLater?: true;
}

/** Whether `next` takes the place of `first` in an index: the first response wins unless it asked to retry later. */
export function supersedes(first: IndexedResponse | undefined, next: IndexedResponse): boolean {
  return first === undefined || (first.retryLater === true && next.retryLater === undefined);
}

/** What indexing one WARC file found. */
export interface WarcFileIndex {
  file: string;
  /** Its response records by URL (`urlKey`), the first one of each URL (`supersedes`). */
  responses: Map<string, IndexedResponse>;
  /** The URLs of the response records marked as the start of a page of the job (`WARC-Crawlkit-Page`), in order. */
  pages: string[];
  /** The fields of its first `warcinfo` record (crawlkit writes the job there), if any. */
  info?: Record<string, string>;
  /** Records read (every type). */
  records: number;
  /** Set when the file ends inside a record: the byte offset where that record starts. Records before it are kept. */
  truncatedAt?: number;
  /**
   * Damaged stretches of a gzip file (a record whose member does not inflate: a flipped bit, a bad block), skipped
   * to the next record's member, whose records are indexed as usual: where each starts and its length in bytes.
   */
  damaged: { offset: number; length: number }[];
}

/** Largest `warcinfo` block read, in bytes: it holds a few fields, not pages. */
const MAX_INFO_BYTES = 1 << 20;

/**
 * Indexes a WARC file by streaming it, never holding more than a record's headers (and a chunk of its block) in
 * memory. An uncompressed file is read record header by record header, seeking past each block, so a 2 GB file costs
 * a few reads per record; a gzip file (one member per record, or one member for the whole file) is inflated
 * through once.
 */
export async function indexWarc(file: string): Promise<WarcFileIndex> {
  const size = (await stat(file)).size;
  const index: WarcFileIndex = { file, responses: new Map(), pages: [], records: 0, damaged: [] };
  if (size === 0) return index;
  const handle = await open(file, 'r');
  const magic = Buffer.alloc(5);
  try {
    await handle.read(magic, 0, 5, 0);
  } finally {
    await handle.close();
  }
  const gzip = magic[0] === 0x1f && magic[1] === 0x8b;
  if (!gzip && magic.toString('latin1') !== 'WARC/') throw new Error('it does not start with a WARC record');
  if (gzip) await indexCompressed(index, size);
  else await indexUncompressed(index, size);
  if (index.records === 0) throw new Error('it holds no complete WARC record');
  return index;
}

async function indexCompressed(index: WarcFileIndex, size: number): Promise<void> {
  let start = 0;
  for (;;) {
    const end = await indexMembers(index, start);
    if (end >= size) return;
    // The parser stops at a member it cannot inflate to its end: a record cut at the end of the file, or a damaged
    // one, after which each record is a member of its own that can be read again.
    const next = await nextRecordMember(index.file, end + 1, size);
    if (next === undefined) {
      index.truncatedAt = end;
      return;
    }
    index.damaged.push({ offset: end, length: next - end });
    start = next;
  }
}

/** Indexes the records of the members from byte `start` on: returns the end, or the start of a member not readable. */
async function indexMembers(index: WarcFileIndex, start: number): Promise<number> {
  const { WARCParser } = await warcio();
  const stream = createReadStream(index.file, { start });
  const parser = new WARCParser(stream, { parseHttp: false });
  let end = start;
  try {
    for (;;) {
      const record = await parser.parse();
      if (!record) return end;
      const offset = start + parser.offset;
      if (!(await consume(index, record))) return offset;
      end = offset + parser.recordLength;
      add(index, record, { file: index.file, offset, length: parser.recordLength });
    }
  } catch {
    return end;
  } finally {
    stream.destroy();
  }
}

/** Bytes read at a time while looking for the next record's gzip member. */
const SCAN_BYTES = 1 << 20;

/** The offset of the first gzip member at or after `from` that inflates to the start of a WARC record. */
async function nextRecordMember(file: string, from: number, size: number): Promise<number | undefined> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(SCAN_BYTES + 2);
    for (let position = from; position < size; position += SCAN_BYTES) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      for (let at = buffer.indexOf(GZIP_MAGIC); at >= 0 && at < bytesRead; at = buffer.indexOf(GZIP_MAGIC, at + 1)) {
        if (at >= SCAN_BYTES) break;
        if (await startsRecord(handle, position + at)) return position + at;
      }
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);

/** Whether the gzip member at `offset` begins with a WARC record's version line. */
async function startsRecord(handle: FileHandle, offset: number): Promise<boolean> {
  const head = Buffer.alloc(4096);
  const { bytesRead } = await handle.read(head, 0, head.length, offset);
  try {
    const text = gunzipSync(head.subarray(0, bytesRead), { finishFlush: constants.Z_SYNC_FLUSH });
    return text.subarray(0, 5).toString('latin1') === 'WARC/';
  } catch {
    return false;
  }
}

async function indexUncompressed(index: WarcFileIndex, size: number): Promise<void> {
  const { WARCParser } = await warcio();
  let offset = 0;
  while (offset < size) {
    const stream = createReadStream(index.file, { start: offset });
    try {
      const parser = new WARCParser(stream, { parseHttp: false });
      const record = await parser.parse();
      if (!record) {
        index.truncatedAt = offset;
        return;
      }
      // The block ends `Content-Length` bytes after the headers, then two CRLFs.
      const length = parser._warcHeadersLength + record.warcContentLength + 4;
      if (offset + length - 4 > size) {
        index.truncatedAt = offset;
        return;
      }
      if (record.warcType === 'warcinfo' && !index.info) await readInfo(index, record);
      add(index, record, { file: index.file, offset, length });
      offset += length;
      // Lenient about extra blank lines between records.
      offset = await skipBlankLines(index.file, offset, size);
    } finally {
      stream.destroy();
    }
  }
}

/** Reads a record's block to its end (the `warcinfo` fields kept); false when the file ends first. */
async function consume(index: WarcFileIndex, record: WARCRecord): Promise<boolean> {
  if (record.warcType === 'warcinfo' && !index.info) return readInfo(index, record);
  const reader = record.reader as AsyncIterable<Uint8Array> & { limit?: number };
  for await (const _chunk of reader) {
    // Only the position matters here.
  }
  return !(reader.limit !== undefined && reader.limit > 0);
}

async function readInfo(index: WarcFileIndex, record: WARCRecord): Promise<boolean> {
  if (record.warcContentLength > MAX_INFO_BYTES) return consume({ ...index, info: {} }, record);
  const text = await record.contentText();
  const info: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) info[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  index.info = info;
  return new TextEncoder().encode(text).byteLength >= record.warcContentLength;
}

function add(index: WarcFileIndex, record: WARCRecord, where: IndexedResponse): void {
  index.records++;
  const target = record.warcTargetURI;
  if (!target) return;
  if (record.warcType === 'metadata') {
    if (record.warcHeader(PAGE_HEADER) === 'true' && !index.pages.includes(target)) index.pages.push(target);
    return;
  }
  if (record.warcType !== 'response') return;
  let key: string;
  try {
    key = urlKey(target);
  } catch {
    return;
  }
  const engine = record.warcHeader(ENGINE_HEADER);
  const response: IndexedResponse = engine ? { ...where, engine } : where;
  if (record.warcHeader(RETRY_LATER_HEADER) === 'true') response.retryLater = true;
  if (!supersedes(index.responses.get(key), response)) return;
  index.responses.set(key, response);
  if (record.warcHeader(PAGE_HEADER) === 'true' && !index.pages.includes(target)) index.pages.push(target);
}

async function skipBlankLines(file: string, offset: number, size: number): Promise<number> {
  if (offset >= size) return offset;
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    let skip = 0;
    while (skip < bytesRead && (buffer[skip] === 0x0d || buffer[skip] === 0x0a)) skip++;
    return offset + skip;
  } finally {
    await handle.close();
  }
}
