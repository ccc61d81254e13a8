import type { FetchedContent } from './content.js';

interface SerializedFetched extends Omit<FetchedContent, 'body'> {
  v: 1;
  body64?: string;
}

/** The page cache keeps what the fetch returned, so a hit can serve any formats and extraction options. */
export function serializeFetched(fetched: FetchedContent): string {
  const { body, ...rest } = fetched;
  const out: SerializedFetched = { v: 1, ...rest };
  if (body !== undefined) out.body64 = Buffer.from(body).toString('base64');
  return JSON.stringify(out);
}

export function deserializeFetched(value: string): FetchedContent {
  const { v: _version, body64, ...rest } = JSON.parse(value) as SerializedFetched;
  const fetched: FetchedContent = rest;
  if (body64 !== undefined) fetched.body = new Uint8Array(Buffer.from(body64, 'base64'));
  return fetched;
}
