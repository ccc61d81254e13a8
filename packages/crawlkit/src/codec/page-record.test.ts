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

describe('deserializeFetched', () => {
  const head = {
    v: 3,
    url: page.url,
    status: 200,
    contentType: 'text/html',
    headers: {},
    engine: 'http',
    proxyUsed: 'basic',
  };
  const damaged: [string, unknown][] = [
    ['not JSON', undefined],
    ['an array', [head]],
    ['null', null],
    ['an unknown version', { ...head, v: 4 }],
    ['a url not a string', { ...head, url: 1 }],
    ['a status not a number', { ...head, status: '200' }],
    ['no content type', { ...head, contentType: undefined }],
    ['headers not an object', { ...head, headers: ['a'] }],
    ['a header not a string', { ...head, headers: { etag: 1 } }],
    ['an unknown engine', { ...head, engine: 'curl' }],
    ['an unknown proxy', { ...head, proxyUsed: 'auto' }],
    ['body64 not a string', { ...head, body64: null }],
    ['a v1 text not a string', { ...head, v: 1, text: 2 }],
  ];

  it.each(damaged)('refuses a head that is %s with STORE_RECORD_INVALID', (_what, value) => {
    const stored = { value: value === undefined ? '{"v":3,' : `${JSON.stringify(value)}\ntext` };
    expect(() => deserializeFetched(stored)).toThrow(expect.objectContaining({ code: 'STORE_RECORD_INVALID' }));
  });

  it('keeps fields it does not check (the cache policy, the fetch time) as they are', () => {
    const stored = { value: `${JSON.stringify({ ...head, fetchedAt: 5, cachePolicy: { v: 1 } })}\nthe text` };
    const { v: _version, ...fields } = head;
    expect(deserializeFetched(stored)).toStrictEqual({
      ...fields,
      fetchedAt: 5,
      cachePolicy: { v: 1 },
      text: 'the text',
    });
  });
});
