import type { FetchedContent } from './content.js';

interface SerializedHead extends Omit<FetchedContent, 'body' | 'text'> {
  v: 1 | 2;
  body64?: string;
  /** v1 kept the text inside the JSON. */
  text?: string;
}

/**
 * The page cache keeps what the fetch returned, so a hit can serve any formats and extraction options. Version 2 is
 * one JSON line of everything but the text, then the text as it is: a page of many megabytes is not escaped, on the
 * main thread, character by character.
 */
export function serializeFetched(fetched: FetchedContent): string {
  const { body, text, ...rest } = fetched;
  const head: SerializedHead = { v: 2, ...rest };
  if (body !== undefined) head.body64 = Buffer.from(body).toString('base64');
  // JSON.stringify never writes a raw line break: the first one ends the head.
  return text === undefined ? JSON.stringify(head) : `${JSON.stringify(head)}\n${text}`;
}

export function deserializeFetched(value: string): FetchedContent {
  const newline = value.indexOf('\n');
  const {
    v: _version,
    body64,
    ...rest
  } = JSON.parse(newline === -1 ? value : value.slice(0, newline)) as SerializedHead;
  const fetched: FetchedContent = rest;
  if (newline !== -1) fetched.text = value.slice(newline + 1);
  if (body64 !== undefined) fetched.body = new Uint8Array(Buffer.from(body64, 'base64'));
  return fetched;
}
