import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { recordCodec } from './record-codec.js';
import {
  decodeBacklog,
  decodeDocument,
  deliveryCodec,
  lineageRunCodec,
  snapshotCodec,
  storedExtractionCodec,
  storedJobCodec,
  storedJobOf,
  taskMetaCodec,
} from './records.js';

const invalid = (message: RegExp | string) => ({
  code: 'STORE_RECORD_INVALID',
  message: expect.stringMatching(message) as unknown,
});

describe('recordCodec', () => {
  const codec = recordCodec({
    name: 'sample',
    version: 2,
    schema: z.object({ title: z.string(), tags: z.array(z.string()) }),
    // Version 0 had no tags; version 1 named the title `name`.
    migrations: {
      0: (record) => ({ ...record, tags: [] }),
      1: ({ name, ...rest }) => ({ ...rest, title: name }),
    },
  });

  it('writes the version with the record and reads it back', () => {
    const text = codec.encode({ title: 'a', tags: ['x'] });
    expect(JSON.parse(text)).toEqual({ v: 2, title: 'a', tags: ['x'] });
    expect(codec.decode(text)).toEqual({ title: 'a', tags: ['x'] });
  });

  it('migrates older records step by step (no `v` is version 0)', () => {
    expect(codec.decode(JSON.stringify({ v: 1, name: 'old', tags: ['t'] }))).toEqual({ title: 'old', tags: ['t'] });
    expect(codec.decode(JSON.stringify({ name: 'oldest' }))).toEqual({ title: 'oldest', tags: [] });
  });

  it('refuses what it cannot read with STORE_RECORD_INVALID naming the record and the problem', () => {
    expect(() => codec.decode('{"v":2,')).toThrow(expect.objectContaining(invalid(/sample .*not JSON/)));
    expect(() => codec.decode('[1,2]')).toThrow(expect.objectContaining(invalid('not an object')));
    expect(() => codec.decode('{"v":"2"}')).toThrow(expect.objectContaining(invalid('is not one')));
    expect(() => codec.decode('{"v":3,"title":"a","tags":[]}')).toThrow(
      expect.objectContaining(invalid(/version 3.*reads up to 2: upgrade crawlkit/)),
    );
    expect(() => codec.decode('{"v":2,"title":"a","tags":[1]}')).toThrow(expect.objectContaining(invalid('tags.0')));
  });

  it("keeps a field a newer crawlkit added (same version) through a read and a rewrite, never in the value's JSON", () => {
    const decoded = codec.decode('{"v":2,"title":"a","tags":[],"later":{"n":1}}');
    expect(Object.keys(decoded)).toEqual(['title', 'tags']);
    expect(JSON.stringify(decoded)).toBe('{"title":"a","tags":[]}');
    const { title: _title, ...rest } = decoded;
    expect(JSON.parse(codec.encode({ ...rest, title: 'b' }))).toEqual({ v: 2, later: { n: 1 }, title: 'b', tags: [] });
  });
});

describe('the records crawlkit keeps', () => {
  it('round-trips a job request and decodes each request text once', () => {
    const request = storedJobCodec.encode({ request: { url: 'https://example.com/' }, creditLimit: 10 });
    const first = storedJobOf<{ url: string }>({ request });
    expect(first).toEqual({ request: { url: 'https://example.com/' }, creditLimit: 10 });
    expect(storedJobOf({ request })).toBe(first);
    expect(() => storedJobOf({ request: '{"v":1,"request":"https://example.com/"}' })).toThrow(
      expect.objectContaining(invalid(/job request .*request/)),
    );
  });

  it('reads jobs and deliveries stored before they kept a webhook secret (their sender signs them)', () => {
    const job = storedJobOf({ request: '{"v":1,"request":{"url":"https://example.com/"}}' });
    expect(job.webhookSecret).toBeUndefined();
    const delivery = deliveryCodec.decode(
      '{"v":1,"url":"http://h/","headers":{},"body":{"type":"crawl.page","id":"j"}}',
    );
    expect(delivery.secret).toBeUndefined();
    expect(deliveryCodec.decode(deliveryCodec.encode({ ...delivery, secret: null })).secret).toBeNull();
  });

  it("reads jobs and deliveries stored before they kept their surface's words (their sender's apply)", () => {
    const old = '{"v":1,"request":{"url":"https://example.com/"}}';
    expect(storedJobOf({ request: old }).optionNames).toBeUndefined();
    const request = storedJobCodec.encode({ request: { url: 'https://example.com/' }, optionNames: 'serve' });
    expect(storedJobOf({ request }).optionNames).toBe('serve');
    expect(() => storedJobOf({ request: request.replace('"serve"', '"cli"') })).toThrow(
      expect.objectContaining(invalid(/optionNames/)),
    );
    const body = { type: 'crawl.page', id: 'j' };
    const delivery = deliveryCodec.decode(JSON.stringify({ v: 1, url: 'http://h/', headers: {}, body }));
    expect(delivery.optionNames).toBeUndefined();
    expect(deliveryCodec.decode(deliveryCodec.encode({ ...delivery, optionNames: 'mcp' })).optionNames).toBe('mcp');
  });

  it('fills defaults of older snapshots and checks task data', () => {
    expect(snapshotCodec.decode('{"markdown":"# a"}')).toEqual({ markdown: '# a', statusCode: 200 });
    expect(taskMetaCodec.decode(taskMetaCodec.encode({ sourceURL: 'a b' }))).toEqual({ sourceURL: 'a b' });
    expect(() => taskMetaCodec.decode('{"v":1,"sourceURL":7}')).toThrow(expect.objectContaining(invalid('sourceURL')));
  });

  it('reads a stored document only with its metadata', () => {
    expect(decodeDocument('{"markdown":"a","metadata":{"statusCode":200}}')).toEqual({
      markdown: 'a',
      metadata: { statusCode: 200 },
    });
    expect(() => decodeDocument('{"markdown":"a"}')).toThrow(expect.objectContaining(invalid('no metadata')));
    expect(() => decodeDocument('not json')).toThrow(expect.objectContaining(invalid('not JSON')));
  });

  it('checks by hand the records a recrawl reads once a page: kept extractions and the lineage run', () => {
    const refuses = (codec: { decode(text: string): unknown }, cases: [string, string][]) => {
      for (const [text, problem] of cases) {
        expect(() => codec.decode(text)).toThrow(expect.objectContaining(invalid(problem)));
      }
    };
    const kept = { fetchedAt: 5, contentHash: 'h', extraction: { markdown: 'a', metadata: {}, warnings: [] } };
    expect(storedExtractionCodec.decode(storedExtractionCodec.encode(kept))).toEqual(kept);
    const { contentHash: _hash, ...unhashed } = kept;
    expect(storedExtractionCodec.decode(storedExtractionCodec.encode(unhashed))).toEqual(unhashed);
    refuses(storedExtractionCodec, [
      ['{"v":1,"fetchedAt":"5","extraction":{"metadata":{}}}', 'fetchedAt'],
      ['{"v":1,"fetchedAt":5,"contentHash":3,"extraction":{"metadata":{}}}', 'contentHash'],
      ['{"v":1,"fetchedAt":5,"extraction":{"markdown":"a"}}', 'extraction'],
      ['{"v":2,"fetchedAt":5,"extraction":{"metadata":{}}}', 'upgrade crawlkit'],
    ]);
    const run = { jobId: 'j', completedAt: 1, pages: [['k', 'https://a.test/', 'h'] as [string, string, string]] };
    expect(lineageRunCodec.decode(lineageRunCodec.encode(run))).toEqual(run);
    refuses(lineageRunCodec, [
      ['{"v":1,"jobId":"j","completedAt":1,"pages":[["k","u"]]}', 'pages.0'],
      ['{"v":1,"jobId":"j","completedAt":1,"pages":[["k","u","h"],["k","u",3]]}', 'pages.1'],
      ['{"v":1,"jobId":"j","completedAt":1,"pages":{}}', 'pages'],
      ['{"v":1,"jobId":7,"completedAt":1,"pages":[]}', 'jobId'],
      ['{"v":1,"jobId":"j","pages":[]}', 'completedAt'],
    ]);
  });

  it("reads a batch's backlog only as a list of URLs", () => {
    expect(decodeBacklog('["https://a.test/","b c"]')).toEqual(['https://a.test/', 'b c']);
    expect(() => decodeBacklog('{"0":"https://a.test/"}')).toThrow(expect.objectContaining(invalid('list of URLs')));
    expect(() => decodeBacklog('[1]')).toThrow(expect.objectContaining(invalid('list of URLs')));
    expect(() => decodeBacklog('["a",')).toThrow(expect.objectContaining(invalid('not JSON')));
  });
});
