import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

import type { WARCRecord } from 'warcio';

import type { Exchange } from './exchange.js';
import { warcio, warcioNode } from './warcio.js';

/** warcio's record class, passed to the record builders once loaded. */
type Records = typeof WARCRecord;

/** Request headers that carry credentials: recorded as `[redacted]`, so a recording can be shared. */
const SECRET_REQUEST_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
/** Response headers written again to match the recorded body (de-chunked by the engine, its length counted here). */
const WIRE_HEADERS = new Set(['transfer-encoding', 'content-length']);

/** What a `WarcWriter` says of the file it wrote. */
export interface WarcWriterStats {
  /** Response records written. */
  responses: number;
  /** Exchanges not written because their URL was recorded already in this file. */
  duplicates: number;
}

/**
 * Writes exchanges to a WARC 1.1 file, one gzip member per record (the form Webrecorder's tools and `warcio` index):
 * a `warcinfo` record first, then a `request` and a `response` record per exchange. A URL is recorded once per file
 * (the first response wins: a URL fetched twice in a job, or a sub-resource shared by pages, is stored once).
 * Records are written one at a time, in the order they were given.
 */
export class WarcWriter {
  readonly path: string;
  readonly #info: Record<string, string>;
  readonly #seen = new Set<string>();
  readonly #pages = new Set<string>();
  #stream: Promise<WriteStream> | undefined;
  #tail: Promise<void> = Promise.resolve();
  #error: Error | undefined;
  #closed = false;
  readonly #stats: WarcWriterStats = { responses: 0, duplicates: 0 };

  /** `info`: the fields of the `warcinfo` record (`software` is added). */
  constructor(path: string, info: Record<string, string> = {}) {
    this.path = path;
    this.#info = info;
  }

  get stats(): Readonly<WarcWriterStats> {
    return this.#stats;
  }

  /**
   * Queues `exchange` for writing, unless its method and URL were recorded already. `page`: the exchange is the start
   * of a page the job scraped (not a sub-resource, robots.txt or a later redirect hop): its response record says so
   * (`WARC-Crawlkit-Page: true`; a `metadata` record with it when the response was recorded before), which
   * `crawlkit replay` scrapes again. Never throws.
   */
  add(exchange: Exchange, page = false): void {
    if (this.#closed) return;
    const key = `${exchange.method} ${exchange.url}`;
    const newPage = page && !this.#pages.has(exchange.url);
    if (newPage) this.#pages.add(exchange.url);
    if (this.#seen.has(key)) {
      this.#stats.duplicates++;
      // Its response is in the file already (a sub-resource, a redirect's end): a metadata record marks the page.
      if (newPage) this.#enqueue((records) => [pageMark(records, exchange)]);
      return;
    }
    this.#seen.add(key);
    this.#stats.responses++;
    this.#enqueue((records) => [requestRecord(records, exchange), responseRecord(records, exchange, newPage)]);
  }

  /** Waits for every queued record to be on disk, then closes the file. Rejects with the first write error. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      await this.#tail;
      const stream = await this.#stream?.catch(() => undefined);
      if (stream) await new Promise<void>((resolve) => stream.end(resolve));
    }
    if (this.#error !== undefined) throw this.#error;
  }

  #enqueue(build: (records: Records) => WARCRecord[]): void {
    this.#tail = this.#tail.then(async () => {
      if (this.#error !== undefined) return;
      try {
        const stream = await this.#open();
        for (const record of build((await warcio()).WARCRecord)) {
          const bytes = await serialized(record);
          if (!stream.write(bytes)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
        }
      } catch (error) {
        this.#error = error instanceof Error ? error : new Error(String(error));
      }
    });
  }

  #open(): Promise<WriteStream> {
    this.#stream ??= (async () => {
      await mkdir(dirname(this.path), { recursive: true });
      const stream = createWriteStream(this.path);
      stream.on('error', (error) => {
        this.#error ??= error;
      });
      const { WARCRecord } = await warcio();
      const info = WARCRecord.createWARCInfo(
        { filename: this.path.split(/[\\/]/).pop() ?? '', warcVersion: 'WARC/1.1' },
        { software: 'crawlkit', format: 'WARC File Format 1.1', ...this.#info },
      );
      stream.write(await serialized(info));
      return stream;
    })();
    return this.#stream;
  }
}

const gzipped = promisify(gzip);

/**
 * A record as one gzip member, compressed in libuv's thread pool (off the main thread, where the crawl runs). zlib
 * compresses it rather than warcio's `gzip` option, which goes through a web `CompressionStream` that refuses
 * warcio's own chunks when they come from another realm (vitest's module runner).
 */
async function serialized(record: WARCRecord): Promise<Buffer> {
  const { WARCSerializer } = await warcioNode();
  return gzipped(await WARCSerializer.serialize(record));
}

function requestRecord(WARCRecord: Records, exchange: Exchange): WARCRecord {
  const url = new URL(exchange.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    headers[name] = SECRET_REQUEST_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value;
  }
  headers.host ??= url.host;
  return WARCRecord.create({
    url: exchange.url,
    type: 'request',
    date: new Date(exchange.receivedAt).toISOString(),
    warcVersion: 'WARC/1.1',
    statusline: `${exchange.method} ${url.pathname}${url.search} HTTP/1.1`,
    httpHeaders: headers,
  });
}

/** The WARC header of a response record that starts a page of the job (`WarcWriter.add`'s `page`). */
export const PAGE_HEADER = 'WARC-Crawlkit-Page';
/** The WARC header naming the engine that recorded a response (`http`, `browser`): replay renders the latter. */
export const ENGINE_HEADER = 'WARC-Crawlkit-Engine';

/** A `metadata` record saying that `exchange`'s URL, recorded before, starts a page of the job. */
function pageMark(WARCRecord: Records, exchange: Exchange): WARCRecord {
  return WARCRecord.create({
    url: exchange.url,
    type: 'metadata',
    date: new Date(exchange.receivedAt).toISOString(),
    warcVersion: 'WARC/1.1',
    warcHeaders: { [PAGE_HEADER]: 'true' },
  });
}

function responseRecord(WARCRecord: Records, exchange: Exchange, page: boolean): WARCRecord {
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(exchange.headers)) {
    if (WIRE_HEADERS.has(name) || (name === 'content-encoding' && exchange.decoded)) continue;
    // Repeated values joined with a line break (`set-cookie`, and any header in the browser): one line each.
    for (const line of value.split('\n')) headers.push([name, line]);
  }
  headers.push(['content-length', String(exchange.body.byteLength)]);
  return WARCRecord.create(
    {
      url: exchange.url,
      type: 'response',
      date: new Date(exchange.receivedAt).toISOString(),
      warcVersion: 'WARC/1.1',
      statusline: `HTTP/1.1 ${exchange.status} ${statusText(exchange.status)}`,
      httpHeaders: headers,
      warcHeaders: { [ENGINE_HEADER]: exchange.engine, ...(page ? { [PAGE_HEADER]: 'true' } : {}) },
    },
    [exchange.body],
  );
}

function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}
