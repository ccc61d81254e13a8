import { describe, expect, it } from 'vitest';

import type { FetchedPage } from '../scrape/fetched-page.js';
import { deserializeFetched, serializeFetched } from './page-record.js';

const page: FetchedPage = {
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
    const stored = serializeFetched(page);
    expect(stored.value.endsWith(`\n${page.text}`)).toBe(true);
    expect(stored.body).toBeUndefined();
    expect(deserializeFetched(stored)).toEqual(page);
  });

  it('hands undecoded bytes to the store as they are, with how to decode them', () => {
    const { text: _text, ...rest } = page;
    // Windows-1252 bytes: "café" is not UTF-8 here, and must come back byte for byte.
    const undecoded: FetchedPage = {
      ...rest,
      body: new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      undecodedText: { declaredCharset: 'windows-1252' },
    };
    const stored = serializeFetched(undecoded);
    expect(stored.body).toBe(undecoded.body);
    expect(stored.value).not.toContain('\n');
    expect(deserializeFetched(stored)).toEqual(undecoded);
  });

  it('reads the entries of version 2 (bytes as base64 in the JSON) and version 1 (the text inside the JSON)', () => {
    const { text: _text, ...pdf } = { ...page, contentType: 'application/pdf', body: new Uint8Array([37, 80, 68, 70]) };
    const { body: _body, ...head } = pdf;
    const v2 = JSON.stringify({ v: 2, ...head, body64: Buffer.from(pdf.body).toString('base64') });
    expect(deserializeFetched({ value: v2 })).toEqual(pdf);
    expect(deserializeFetched({ value: JSON.stringify({ v: 1, ...page }) })).toEqual(page);
  });
});
