import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { WARCParser } from 'warcio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Exchange } from './exchange.js';
import { WarcWriter } from './warc-writer.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crawlkit-warc-writer-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function exchange(path: string): Exchange {
  return {
    url: `http://site.test${path}`,
    method: 'GET',
    requestHeaders: { accept: 'text/html' },
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: new TextEncoder().encode(`<h1>${path}</h1>`),
    decoded: true,
    receivedAt: Date.now(),
    engine: 'http',
  };
}

async function records(file: string): Promise<string[]> {
  const found: string[] = [];
  for await (const record of WARCParser.iterRecords([await readFile(file)])) {
    found.push(record.warcType === 'warcinfo' ? 'warcinfo' : `${record.warcType} ${record.warcTargetURI ?? ''}`);
    await record.readFully();
  }
  return found;
}

describe('WarcWriter on a file that exists (a job resumed after a crash)', () => {
  it('appends after the records written before, a new warcinfo marking where', async () => {
    const file = join(dir, 'job.warc.gz');
    const first = new WarcWriter(file);
    first.add(exchange('/one'), true);
    await first.close();
    const again = new WarcWriter(file);
    again.add(exchange('/two'), true);
    await again.close();
    expect(await records(file)).toEqual([
      'warcinfo',
      'request http://site.test/one',
      'response http://site.test/one',
      'warcinfo',
      'request http://site.test/two',
      'response http://site.test/two',
    ]);
  });

  it('drops a record the crash left half written, so the records appended after it can be read', async () => {
    const file = join(dir, 'job.warc.gz');
    const first = new WarcWriter(file);
    first.add(exchange('/one'), true);
    await first.close();
    // kill -9 in the middle of a record: half a gzip member at the end of the file.
    const member = gzipSync(Buffer.from('WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 5000\r\n\r\n<html>'));
    await appendFile(file, member.subarray(0, member.length >> 1));
    const again = new WarcWriter(file);
    again.add(exchange('/two'), true);
    await again.close();
    expect(await records(file)).toEqual([
      'warcinfo',
      'request http://site.test/one',
      'response http://site.test/one',
      'warcinfo',
      'request http://site.test/two',
      'response http://site.test/two',
    ]);
  });
});

describe('WarcWriter records', () => {
  it('link each request to its response (WARC-Concurrent-To naming the response record)', async () => {
    const file = join(dir, 'pairs.warc.gz');
    const writer = new WarcWriter(file);
    writer.add(exchange('/a'), true);
    writer.add(exchange('/b'));
    await writer.close();
    const seen: { type: string; id: string | null; concurrentTo: string | null }[] = [];
    for await (const record of WARCParser.iterRecords([await readFile(file)])) {
      const get = (name: string) => record.warcHeaders.headers.get(name) ?? null;
      seen.push({ type: record.warcType ?? '', id: get('WARC-Record-ID'), concurrentTo: get('WARC-Concurrent-To') });
      await record.readFully();
    }
    const pairs = seen.filter((r) => r.type !== 'warcinfo');
    expect(pairs.map((r) => r.type)).toEqual(['request', 'response', 'request', 'response']);
    for (let i = 0; i < pairs.length; i += 2) {
      expect(pairs[i]!.concurrentTo).toMatch(/^<urn:uuid:/);
      expect(pairs[i]!.concurrentTo).toBe(pairs[i + 1]!.id);
    }
  });
});
