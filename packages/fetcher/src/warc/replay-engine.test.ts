import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { request as rawRequest } from 'undici';
import { WARCParser, WARCRecord } from 'warcio';
import { WARCSerializer } from 'warcio/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { failure } from '../http/__fixtures__/http-site.ts';
import { HttpEngine } from '../http/http-engine.js';
import { ReplayEngine } from './replay-engine.js';
import { indexWarc } from './warc-index.js';
import { WarcWriter } from './warc-writer.js';

let server: FixtureServer;
let dir: string;
let recording: string;
const PATHS = ['/redirect/chain', '/http/gzip', '/http/json', '/http/image', '/status/404'];

/** Counts every client socket this process creates (any library, any host). */
function socketCounter(): { readonly count: number; stop(): void } {
  let count = 0;
  const onSocket = () => count++;
  subscribe('net.client.socket', onSocket);
  return {
    get count() {
      return count;
    },
    stop: () => unsubscribe('net.client.socket', onSocket),
  };
}

beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'crawlkit-warc-'));
  recording = join(dir, 'job.warc.gz');
  const writer = new WarcWriter(recording, { job: '{"kind":"test"}' });
  const http = new HttpEngine();
  try {
    for (const path of [...PATHS, '/http/json']) {
      await http.fetch({ url: `${server.url}${path}`, onExchange: (exchange) => writer.add(exchange) });
    }
  } finally {
    await http.close();
  }
  await writer.close();
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('WarcWriter', () => {
  it('writes a WARC that warcio reads back, each response once, with its request and the warcinfo first', async () => {
    const records: { type: string; url: string | null }[] = [];
    const bytes = await readFile(recording);
    for await (const record of WARCParser.iterRecords([bytes])) {
      records.push({ type: record.warcType, url: record.warcTargetURI ?? null });
      await record.readFully();
    }
    expect(records[0]?.type).toBe('warcinfo');
    const responses = records.filter((record) => record.type === 'response').map((record) => record.url);
    // The redirect chain's two hops, then each page once (json was fetched twice).
    expect(responses).toEqual([
      `${server.url}/redirect/chain`,
      `${server.url}/redirect/once`,
      `${server.url}/articles/first-post.html`,
      `${server.url}/http/gzip`,
      `${server.url}/http/json`,
      `${server.url}/http/image`,
      `${server.url}/status/404`,
    ]);
    expect(records.filter((record) => record.type === 'request')).toHaveLength(responses.length);
  });
  it('records a compressed body as received, its content-encoding kept, and replay decodes it', async () => {
    const paths = ['/http/gzip', '/http/brotli', '/http/deflate-raw', '/http/gzip-then-br'];
    const file = join(dir, 'encoded.warc.gz');
    const writer = new WarcWriter(file, { job: '{"kind":"test"}' });
    const http = new HttpEngine();
    const live = new Map<string, string | undefined>();
    try {
      for (const path of paths) {
        const result = await http.fetch({ url: `${server.url}${path}`, onExchange: (e) => writer.add(e) });
        live.set(`${server.url}${path}`, result.text);
      }
    } finally {
      await http.close();
    }
    await writer.close();

    const recorded = new Map<string, { encoding: string | null; payload: Buffer }>();
    for await (const record of WARCParser.iterRecords([await readFile(file)])) {
      if (record.warcType !== 'response') continue;
      const encoding = record.httpHeaders?.headers.get('content-encoding') ?? null;
      recorded.set(record.warcTargetURI!, { encoding, payload: Buffer.from(await record.readFully(false)) });
    }
    for (const path of paths) {
      const url = `${server.url}${path}`;
      const wire = await rawRequest(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(recorded.get(url)?.encoding).toBe(wire.headers['content-encoding']);
      expect(recorded.get(url)?.payload.equals(Buffer.from(await wire.body.arrayBuffer()))).toBe(true);
      const replayed = await new ReplayEngine({ files: [file] }).fetchPlain({ url });
      expect(replayed.headers['content-encoding']).toBeUndefined();
      expect(replayed.text).toBe(live.get(url));
      expect(replayed.text).toContain('café');
    }
  });
});

describe('ReplayEngine', () => {
  it('serves the recorded pages, redirects followed and gzip decoded, opening no socket', async () => {
    const sockets = socketCounter();
    const before = server.connections;
    const replay = new ReplayEngine({ files: [recording] });
    try {
      const redirected = await replay.fetchPlain({ url: `${server.url}/redirect/chain` });
      expect(redirected).toMatchObject({ url: `${server.url}/articles/first-post.html`, status: 200 });
      expect(redirected.redirects).toEqual([`${server.url}/redirect/chain`, `${server.url}/redirect/once`]);
      expect(redirected.text).toContain('<html');
      const gzip = await replay.fetchPlain({ url: `${server.url}/http/gzip` });
      expect(gzip.headers['content-encoding']).toBeUndefined();
      const live = new HttpEngine();
      const liveGzip = await live.fetch({ url: `${server.url}/http/gzip` }).finally(() => live.close());
      const afterLive = sockets.count;
      expect(gzip.text).toBe(liveGzip.text);
      const image = await replay.fetchPlain({ url: `${server.url}/http/image` });
      expect(image.contentType).toBe('image/png');
      expect(Buffer.from(image.body).toString('hex')).toMatch(/^89504e470d0a1a0a/);
      expect(image.text).toBeUndefined();
      expect((await replay.fetchPlain({ url: `${server.url}/status/404` })).status).toBe(404);
      // Only the live comparison above opened a socket.
      expect(sockets.count).toBe(afterLive);
      expect(server.connections).toBe(before + 1);
    } finally {
      sockets.stop();
    }
  });

  it('answers a URL not recorded with SCRAPE_REPLAY_NOT_RECORDED, saying what to do', async () => {
    const error = await failure(new ReplayEngine({ files: [recording] }).fetchPlain({ url: `${server.url}/nope` }));
    expect(error.code).toBe('SCRAPE_REPLAY_NOT_RECORDED');
    expect(error.message).toMatch(/not in the recording .*record: true/);
  });

  it('refuses a recorded URL that the URL policy refuses', async () => {
    const replay = new ReplayEngine({ files: [recording], urlPolicy: { allowPrivateNetworks: false } });
    const error = await failure(replay.fetchPlain({ url: `${server.url}/http/json` }));
    expect(error.code).toBe('URL_BLOCKED');
  });

  it('refuses a file that is not there or not a WARC file with REPLAY_FILE_UNREADABLE', async () => {
    const missing = await failure(
      new ReplayEngine({ files: [join(dir, 'none.warc')] }).fetchPlain({ url: server.url }),
    );
    expect(missing.code).toBe('REPLAY_FILE_UNREADABLE');
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'hello, not a WARC\n');
    const notWarc = await failure(new ReplayEngine({ files: [text] }).fetchPlain({ url: server.url }));
    expect(notWarc.code).toBe('REPLAY_FILE_UNREADABLE');
  });

  it('serves the complete records of a file cut mid-record and reports the cut once', async () => {
    const whole = await readFile(recording);
    const full = await indexWarc(recording);
    const last = [...full.responses.values()].at(-1)!;
    const cut = join(dir, 'cut.warc.gz');
    await writeFile(cut, whole.subarray(0, last.offset + Math.floor(last.length / 2)));
    const told: string[] = [];
    const replay = new ReplayEngine({ files: [cut], onTruncated: (_file, message) => told.push(message) });
    expect((await replay.fetchPlain({ url: `${server.url}/http/image` })).status).toBe(200);
    const lost = await failure(replay.fetchPlain({ url: `${server.url}/status/404` }));
    expect(lost.code).toBe('SCRAPE_REPLAY_NOT_RECORDED');
    expect(lost.message).toMatch(/truncated/);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(new RegExp(`ends inside a record \\(from byte ${last.offset}\\).*6 complete responses`));
  });

  it('skips a damaged record in the middle of a gzip file and serves the records after it, saying where', async () => {
    const whole = Buffer.from(await readFile(recording));
    const full = await indexWarc(recording);
    const responses = [...full.responses.values()];
    const broken = responses[2]!;
    // One byte flipped in the middle of a record's gzip member: that member no longer inflates.
    whole[broken.offset + Math.floor(broken.length / 2)]! ^= 0xff;
    const damaged = join(dir, 'damaged.warc.gz');
    await writeFile(damaged, whole);
    const index = await indexWarc(damaged);
    expect(index.truncatedAt).toBeUndefined();
    expect(index.damaged).toEqual([{ offset: broken.offset, length: broken.length }]);
    expect(index.responses.size).toBe(full.responses.size - 1);
    const told: string[] = [];
    const replay = new ReplayEngine({ files: [damaged], onDamaged: (_file, message) => told.push(message) });
    // The records after the damaged one are served.
    expect((await replay.fetchPlain({ url: `${server.url}/status/404` })).status).toBe(404);
    expect((await replay.fetchPlain({ url: `${server.url}/http/image` })).status).toBe(200);
    expect(told).toEqual([
      expect.stringMatching(new RegExp(`damaged records \\(${broken.length} bytes from byte ${broken.offset}\\)`)),
    ]);
  });

  it("serves another tool's record kept chunked and gzipped, and one in a coding it cannot decode as recorded", async () => {
    const page = '<html><body><p>café, from a chunked and gzipped record</p></body></html>';
    const gzipped = gzipSync(Buffer.from(page));
    const half = Math.floor(gzipped.length / 2);
    const chunked = Buffer.concat([
      Buffer.from(`${half.toString(16)}\r\n`),
      gzipped.subarray(0, half),
      Buffer.from(`\r\n${(gzipped.length - half).toString(16)}\r\n`),
      gzipped.subarray(half),
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
    const record = (url: string, headers: Record<string, string>, body: Uint8Array) =>
      WARCSerializer.serialize(
        WARCRecord.create({ url, type: 'response', warcVersion: 'WARC/1.1', httpHeaders: headers }, [body]),
      );
    const file = join(dir, 'foreign.warc');
    await writeFile(
      file,
      Buffer.concat([
        await record(
          'http://foreign.test/chunked',
          { 'content-type': 'text/html; charset=utf-8', 'transfer-encoding': 'chunked', 'content-encoding': 'gzip' },
          chunked,
        ),
        await record('http://foreign.test/odd', { 'content-type': 'text/plain', 'content-encoding': 'x-odd' }, gzipped),
      ]),
    );
    const replay = new ReplayEngine({ files: [file] });
    const served = await replay.fetchPlain({ url: 'http://foreign.test/chunked' });
    expect(served.text).toBe(page);
    expect(served.headers).not.toHaveProperty('transfer-encoding');
    expect(served.headers).not.toHaveProperty('content-encoding');
    const odd = await replay.fetchPlain({ url: 'http://foreign.test/odd' });
    expect(odd.headers['content-encoding']).toBe('x-odd');
    expect(Buffer.from(odd.body).equals(gzipped)).toBe(true);
    expect(odd.text).toBeUndefined();
  });

  it('indexes a 2 GB uncompressed WARC without reading it whole, and refuses its huge record', async () => {
    const big = join(dir, 'big.warc');
    const serialize = async (url: string, body: string) =>
      WARCSerializer.serialize(
        WARCRecord.create({ url, type: 'response', httpHeaders: { 'content-type': 'text/html' } }, [
          new TextEncoder().encode(body),
        ]),
      );
    const first = await serialize('http://big.test/first', '<p>first</p>');
    const last = await serialize('http://big.test/last', '<p>last</p>');
    // A record whose block is 2 GB of zeros (a sparse hole), between two small ones.
    const hugeLength = 2 * 1024 ** 3;
    const hugeHead = Buffer.from(
      'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://big.test/huge\r\n' +
        `WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\nContent-Length: ${hugeLength}\r\n\r\n`,
    );
    const handle = await open(big, 'w');
    try {
      await handle.write(first, 0, first.length, 0);
      await handle.write(hugeHead, 0, hugeHead.length, first.length);
      const afterHuge = first.length + hugeHead.length + hugeLength;
      await handle.write(Buffer.from('\r\n\r\n'), 0, 4, afterHuge);
      await handle.write(last, 0, last.length, afterHuge + 4);
    } finally {
      await handle.close();
    }
    expect((await stat(big)).size).toBeGreaterThan(hugeLength);
    const heapBefore = process.memoryUsage().rss;
    const replay = new ReplayEngine({ files: [big] });
    const served = await replay.fetchPlain({ url: 'http://big.test/last' });
    expect(served.text).toBe('<p>last</p>');
    expect((await replay.index()).files[0]).toMatchObject({ records: 3 });
    expect(process.memoryUsage().rss - heapBefore).toBeLessThan(256 * 1024 ** 2);
  });
});
