import type { FetchedContent } from './content.js';

interface SerializedHead extends Omit<FetchedContent, 'body' | 'text'> {
  v: 1 | 2 | 3;
  /** v2 kept bytes as base64 inside the JSON. */
  body64?: string;
  /** v1 kept the text inside the JSON. */
  text?: string;
}

/** A page cache entry's payload: the store's `value`, and the bytes it keeps beside it. */
export interface SerializedFetch {
  value: string;
  body?: Uint8Array;
}

/**
 * The page cache keeps what the fetch returned, so a hit can serve any formats and extraction options. Version 3 is
 * one JSON line of everything but the page, then the text as it is when the page was decoded (the browser's); the
 * bytes of a page fetched over HTTP (undecoded text, PDF) go to the store beside it, as they are. Nothing of the size
 * of the page is decoded, escaped or encoded on the main thread.
 */
export function serializeFetched(fetched: FetchedContent): SerializedFetch {
  const { body, text, ...rest } = fetched;
  const head = JSON.stringify({ v: 3, ...rest } satisfies SerializedHead);
  // JSON.stringify never writes a raw line break: the first one ends the head.
  const value = text === undefined ? head : `${head}\n${text}`;
  return body === undefined ? { value } : { value, body };
}

export function deserializeFetched(stored: SerializedFetch): FetchedContent {
  const { value, body } = stored;
  const newline = value.indexOf('\n');
  const {
    v: _version,
    body64,
    ...rest
  } = JSON.parse(newline === -1 ? value : value.slice(0, newline)) as SerializedHead;
  const fetched: FetchedContent = rest;
  if (newline !== -1) fetched.text = value.slice(newline + 1);
  if (body !== undefined) fetched.body = body;
  else if (body64 !== undefined) fetched.body = new Uint8Array(Buffer.from(body64, 'base64'));
  return fetched;
}

/** The size of a stored entry: with its `cachedAt`, tells a rewritten entry from one read before. */
export function storedLength(stored: SerializedFetch): number {
  return stored.value.length + (stored.body?.byteLength ?? 0);
}
