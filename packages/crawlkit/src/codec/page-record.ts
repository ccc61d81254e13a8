import { CrawlkitError } from '../errors.js';
import type { FetchedPage } from '../scrape/fetched-page.js';
import { isRecord } from './record-codec.js';

/** A page cache entry's payload: the store's `value`, and the bytes it keeps beside it. */
export interface PageRecord {
  value: string;
  body?: Uint8Array;
}

/** The head of a page cache entry: everything of the fetched page but its text and bytes. */
interface Head extends Omit<FetchedPage, 'text' | 'body'> {
  v: 1 | 2 | 3;
  /** v2 kept bytes as base64 inside the JSON. */
  body64?: string;
  /** v1 kept the text inside the JSON. */
  text?: string;
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

/**
 * Whether a parsed head has the fields every reader of a page counts on, of their types. Checked by hand, not by a
 * zod schema: every page a recrawl confirms is read through here, and in a new process zod's check of 300 heads took
 * 7-9 ms of CPU against under 1 ms (issue 41, docs/decisions.md).
 */
function isHead(value: unknown): value is Head {
  if (!isRecord(value)) return false;
  const { v, url, status, contentType, headers, engine, proxyUsed, body64, text } = value;
  return (
    (v === 1 || v === 2 || v === 3) &&
    typeof url === 'string' &&
    typeof status === 'number' &&
    typeof contentType === 'string' &&
    isRecord(headers) &&
    Object.values(headers).every((header) => typeof header === 'string') &&
    (engine === 'http' || engine === 'browser') &&
    (proxyUsed === 'basic' || proxyUsed === 'stealth') &&
    optionalString(body64) &&
    optionalString(text)
  );
}

/**
 * The page cache keeps what the fetch returned, so a hit can serve any formats and extraction options. Version 3 is
 * one JSON line of everything but the page, then the text as it is when the page was decoded (the browser's); the
 * bytes of a page fetched over HTTP (undecoded text, PDF) go to the store beside it, as they are. Nothing of the size
 * of the page is decoded, escaped or encoded on the main thread. Versions 1 and 2 are still read.
 */
export function serializeFetched(fetched: FetchedPage): PageRecord {
  const { body, text, ...rest } = fetched;
  const head = JSON.stringify({ v: 3, ...rest });
  // JSON.stringify never writes a raw line break: the first one ends the head.
  const value = text === undefined ? head : `${head}\n${text}`;
  return body === undefined ? { value } : { value, body };
}

/** The fetched page of a cache entry. Rejects with `STORE_RECORD_INVALID` when its head is damaged. */
export function deserializeFetched(stored: PageRecord): FetchedPage {
  const { value, body } = stored;
  const newline = value.indexOf('\n');
  let head: unknown;
  try {
    head = JSON.parse(newline === -1 ? value : value.slice(0, newline));
  } catch {
    head = undefined;
  }
  if (!isHead(head)) {
    throw new CrawlkitError('STORE_RECORD_INVALID', 'A page cache entry cannot be read: its head is damaged.');
  }
  const { v: _version, body64, ...rest } = head;
  const fetched = rest as FetchedPage;
  if (newline !== -1) fetched.text = value.slice(newline + 1);
  if (body !== undefined) fetched.body = body;
  else if (body64 !== undefined) fetched.body = new Uint8Array(Buffer.from(body64, 'base64'));
  return fetched;
}

/** The size of a stored entry: with its `cachedAt`, tells a rewritten entry from one read before. */
export function storedLength(stored: PageRecord): number {
  return stored.value.length + (stored.body?.byteLength ?? 0);
}
