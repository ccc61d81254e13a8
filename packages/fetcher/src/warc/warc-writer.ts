import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, stat, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';

import { lazyModule } from '@crawlkit/options/lazy-module';
import { asksRetryLater } from '@crawlkit/options/retry-later';
import type { WARCRecord } from 'warcio';

import type { Exchange } from './exchange.js';

/**
 * The record builders, loaded with warcio at the first record written (about 25 modules with pako, hash-wasm and
 * tempy): only recording jobs need them.
 */
const warcRecords = lazyModule(() => import('./warc-records.js'));
type WarcRecords = Awaited<ReturnType<typeof warcRecords>>;
/** The reader, loaded when a recording's file exists already (a resumed job): a plain scrape never reads a WARC. */
const warcIndex = lazyModule(() => import('./warc-index.js'));

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
 * (the first response wins: a URL fetched twice in a job, or a sub-resource shared by pages, is stored once), but
 * a 429 or 503 does not count: the response to the crawl's retry is recorded after it.
 * Records are written one at a time, in the order they were given.
 *
 * A file that exists already (the recording of a job resumed after a crash or a restart) is appended to, never
 * replaced: a record the crash cut is dropped first, so that every record after it can be read, and a new `warcinfo`
 * marks where the writing began again.
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
      if (newPage) this.#enqueue((records) => [records.pageMark(exchange)]);
      return;
    }
    // A 429/503 is not the URL's answer: the crawl asks again, and that response is recorded too (replay serves it).
    if (!asksRetryLater(exchange.status)) this.#seen.add(key);
    this.#stats.responses++;
    this.#enqueue((records) => {
      const response = records.responseRecord(exchange, newPage);
      return [records.requestRecord(exchange, response), response];
    });
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

  #enqueue(build: (records: WarcRecords) => WARCRecord[]): void {
    this.#tail = this.#tail.then(async () => {
      if (this.#error !== undefined) return;
      try {
        const stream = await this.#open();
        const records = await warcRecords();
        for (const record of build(records)) {
          const bytes = await records.serialized(record);
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
      await cutToLastRecord(this.path);
      const stream = createWriteStream(this.path, { flags: 'a' });
      stream.on('error', (error) => {
        this.#error ??= error;
      });
      const { serialized, warcInfo } = await warcRecords();
      stream.write(await serialized(warcInfo(this.path.split(/[\\/]/).pop() ?? '', this.#info)));
      return stream;
    })();
    return this.#stream;
  }
}

/**
 * Cuts `path`, when it exists, back to the end of its last complete record: a process killed while writing leaves a
 * record (a gzip member) half written, after which nothing appended could be read. A file with no complete record is
 * emptied.
 */
async function cutToLastRecord(path: string): Promise<void> {
  const size = await stat(path).then(
    (stats) => stats.size,
    () => 0,
  );
  if (size === 0) return;
  const { indexWarc } = await warcIndex();
  const end = await indexWarc(path).then(
    (index) => index.truncatedAt ?? size,
    () => 0,
  );
  if (end < size) await truncate(path, end);
}
