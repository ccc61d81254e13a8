import { open } from 'node:fs/promises';

import { WARCParser } from 'warcio';

import type { IndexedResponse } from './warc-index.js';

/** A recorded response as read back: what the engines' `FetchResult` is made of. */
export interface RecordedResponse {
  status: number;
  /** Response headers, names lower-cased, repeated ones joined with `, ` (`set-cookie` with a line break). */
  headers: Record<string, string>;
  /** The payload with its transfer and content encodings removed. */
  body: Uint8Array;
  /** `WARC-Date` as epoch ms. */
  recordedAt: number;
}

/** Headers that described the recorded bytes, not the decoded body handed on. */
const ENCODING_HEADERS = ['content-encoding', 'transfer-encoding'];

/**
 * Reads the response record at `where` (one `pread` of its bytes, then `warcio` parses and decodes it). Null when the
 * bytes there are not a response record (the file changed since it was indexed).
 */
export async function readResponse(where: IndexedResponse): Promise<RecordedResponse | null> {
  const bytes = Buffer.alloc(where.length);
  const handle = await open(where.file, 'r');
  try {
    await handle.read(bytes, 0, where.length, where.offset);
  } finally {
    await handle.close();
  }
  const record = await WARCParser.parse([bytes]);
  if (!record || record.warcType !== 'response' || !record.httpHeaders) return null;
  const http = record.httpHeaders;
  const encoded = ENCODING_HEADERS.some((name) => http.headers.get(name));
  const body = await record.readFully(true);
  const headers: Record<string, string> = {};
  for (const [name, value] of http.headers as Iterable<[string, string]>) {
    const key = name.toLowerCase();
    if (encoded && (ENCODING_HEADERS.includes(key) || key === 'content-length')) continue;
    const previous = headers[key];
    headers[key] = previous === undefined ? value : `${previous}${key === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  const recordedAt = Date.parse(record.warcDate ?? '');
  return {
    status: Number(http.statusCode) || 200,
    headers,
    body,
    recordedAt: Number.isNaN(recordedAt) ? Date.now() : recordedAt,
  };
}
