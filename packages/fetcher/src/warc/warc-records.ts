import { STATUS_CODES } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

import { asksRetryLater } from '@crawlkit/options/retry-later';
import { WARCRecord } from 'warcio';
import { WARCSerializer } from 'warcio/node';

import type { Exchange } from './exchange.js';
import { ENGINE_HEADER, PAGE_HEADER, RETRY_LATER_HEADER } from './warc-headers.js';

/** Request headers that carry credentials: recorded as `[redacted]`, so a recording can be shared. */
const SECRET_REQUEST_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
/** Response headers written again to match the recorded body (de-chunked by the engine, its length counted here). */
const WIRE_HEADERS = new Set(['transfer-encoding', 'content-length']);

/** The `warcinfo` record that opens a file: its name and `info` (`software` is added). */
export function warcInfo(filename: string, info: Record<string, string>): WARCRecord {
  return WARCRecord.createWARCInfo(
    { filename, warcVersion: 'WARC/1.1' },
    { software: 'crawlkit', format: 'WARC File Format 1.1', ...info },
  );
}

const gzipped = promisify(gzip);

/**
 * A record as one gzip member, compressed in libuv's thread pool (off the main thread, where the crawl runs). zlib
 * compresses it rather than warcio's `gzip` option, which goes through a web `CompressionStream` that refuses
 * warcio's own chunks when they come from another realm (vitest's module runner).
 */
export async function serialized(record: WARCRecord): Promise<Buffer> {
  return gzipped(await WARCSerializer.serialize(record));
}

export function requestRecord(exchange: Exchange, response?: WARCRecord): WARCRecord {
  const url = new URL(exchange.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    headers[name] = SECRET_REQUEST_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value;
  }
  headers.host ??= url.host;
  const concurrentTo = response?.warcHeaders.headers.get('WARC-Record-ID');
  return WARCRecord.create({
    url: exchange.url,
    type: 'request',
    date: new Date(exchange.receivedAt).toISOString(),
    warcVersion: 'WARC/1.1',
    statusline: `${exchange.method} ${url.pathname}${url.search} HTTP/1.1`,
    httpHeaders: headers,
    // WARC 1.1 §5.7: the request names the response it was made with (what Heritrix's readers pair them by).
    ...(concurrentTo ? { warcHeaders: { 'WARC-Concurrent-To': concurrentTo } } : {}),
  });
}

/** A `metadata` record saying that `exchange`'s URL, recorded before, starts a page of the job. */
export function pageMark(exchange: Exchange): WARCRecord {
  return WARCRecord.create({
    url: exchange.url,
    type: 'metadata',
    date: new Date(exchange.receivedAt).toISOString(),
    warcVersion: 'WARC/1.1',
    warcHeaders: { [PAGE_HEADER]: 'true' },
  });
}

export function responseRecord(exchange: Exchange, page: boolean): WARCRecord {
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
      warcHeaders: {
        [ENGINE_HEADER]: exchange.engine,
        ...(page ? { [PAGE_HEADER]: 'true' } : {}),
        ...(asksRetryLater(exchange.status) ? { [RETRY_LATER_HEADER]: 'true' } : {}),
      },
    },
    [exchange.body],
  );
}

function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}
