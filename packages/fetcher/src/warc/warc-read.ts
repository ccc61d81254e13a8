import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';

import { DEFAULT_HTTP_LIMITS } from '../http/limits.js';
import { parseContentEncoding, readBody } from '../http/read-body.js';
import type { IndexedResponse } from './warc-index.js';
import { warcio } from './warcio.js';

/** A recorded response as read back: what the engines' `FetchResult` is made of. */
export interface RecordedResponse {
  status: number;
  /** Response headers, names lower-cased, repeated ones joined with `, ` (`set-cookie` with a line break). */
  headers: Record<string, string>;
  /** The payload with its transfer and content encodings removed (unless `decoded` is false). */
  body: Uint8Array;
  /**
   * False when the payload's `content-encoding` is one crawlkit cannot decode: `body` and that header are as recorded.
   */
  decoded: boolean;
  /** `WARC-Date` as epoch ms. */
  recordedAt: number;
}

/** Headers that described the recorded bytes, not the decoded body handed on. */
const ENCODING_HEADERS = ['content-encoding', 'transfer-encoding', 'content-length'];

/** The replay's decoding limits: those of a live fetch, less the wire size (`maxRecordBytes` bounds that). */
const LIMITS = { ...DEFAULT_HTTP_LIMITS, maxBodyBytes: Number.POSITIVE_INFINITY };

/**
 * Reads the response record at `where` (one `pread` of its bytes, then `warcio` parses it). Null when the bytes there
 * are not a response record (the file changed since it was indexed). The payload is de-chunked when the record says
 * `chunked`, and its content codings are removed by the HTTP engine's own decoder, with a live fetch's limits on the
 * decoded size and the compression ratio: gzip, deflate, br and zstd, whoever recorded it.
 */
export async function readResponse(where: IndexedResponse): Promise<RecordedResponse | null> {
  const bytes = Buffer.alloc(where.length);
  const handle = await open(where.file, 'r');
  try {
    await handle.read(bytes, 0, where.length, where.offset);
  } finally {
    await handle.close();
  }
  const { WARCParser } = await warcio();
  const record = await WARCParser.parse([bytes]);
  if (!record || record.warcType !== 'response' || !record.httpHeaders) return null;
  const http = record.httpHeaders;
  const { body, decoded } = await payload(
    await record.readFully(false),
    http.headers.get('transfer-encoding'),
    http.headers.get('content-encoding'),
    record.warcTargetURI ?? where.file,
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of http.headers as Iterable<[string, string]>) {
    const key = name.toLowerCase();
    if (ENCODING_HEADERS.includes(key) && (decoded || key !== 'content-encoding')) continue;
    const previous = headers[key];
    headers[key] = previous === undefined ? value : `${previous}${key === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  const recordedAt = Date.parse(record.warcDate ?? '');
  return {
    status: Number(http.statusCode) || 200,
    headers,
    body,
    decoded,
    recordedAt: Number.isNaN(recordedAt) ? Date.now() : recordedAt,
  };
}

async function payload(
  raw: Uint8Array,
  transferEncoding: string | null | undefined,
  contentEncoding: string | null | undefined,
  url: string,
): Promise<{ body: Uint8Array; decoded: boolean }> {
  const dechunked = transferEncoding?.toLowerCase().includes('chunked')
    ? await new (await warcio()).AsyncIterReader([raw], null, true).readFully()
    : raw;
  const codings = parseContentEncoding(contentEncoding ?? undefined);
  if (codings.length === 0) return { body: dechunked, decoded: true };
  return readBody(
    Readable.from([Buffer.from(dechunked.buffer, dechunked.byteOffset, dechunked.byteLength)]),
    codings,
    LIMITS,
    { wireBytes: 0 },
    url,
  );
}
