import { describe, expect, it } from 'vitest';

import type { FetchedContent } from './content.js';
import { deserializeFetched, serializeFetched } from './serialize.js';

const page: FetchedContent = {
  url: 'http://127.0.0.1/a',
  status: 200,
  contentType: 'text/html',
  headers: { 'content-type': 'text/html' },
  text: '<p>one\nline "two"</p>\n\n\\n',
  engine: 'http',
  proxyUsed: 'basic',
};

describe('serializeFetched', () => {
  it('keeps the text as it is after one JSON line, and reads it back', () => {
    const value = serializeFetched(page);
    expect(value.endsWith(`\n${page.text}`)).toBe(true);
    expect(deserializeFetched(value)).toEqual(page);
  });

  it('reads back binary bodies and entries without text', () => {
    const { text: _text, ...pdf } = { ...page, contentType: 'application/pdf', body: new Uint8Array([37, 80, 68, 70]) };
    expect(deserializeFetched(serializeFetched(pdf))).toEqual(pdf);
  });

  it('reads the entries of version 1 (the text inside the JSON)', () => {
    expect(deserializeFetched(JSON.stringify({ v: 1, ...page }))).toEqual(page);
  });
});
