import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

import { FetchError } from '../errors.js';
import { RATIO_CHECK_FLOOR_BYTES } from './limits.js';
import type { HttpLimits } from './types.js';

/** Bytes received on the wire so far; the engine's low-speed watchdog reads it. */
export interface BodyMeter {
  wireBytes: number;
}

export interface ReadBody {
  body: Uint8Array;
  /** False when a content-encoding was not understood: `body` is then still encoded. */
  decoded: boolean;
  /** The bytes as they came, content codings still on: only when asked for (`keepWire`) and `body` was decoded. */
  wire?: Uint8Array;
  /** The body was cut at `readAtMost` bytes: the rest was not read. */
  truncated?: true;
}

/** What `readBody` reads of a response. */
export interface BodyReading {
  /** Keep the encoded bytes as well (a recording). @default false */
  keepWire?: boolean;
  /** Stop after this many bytes of the decoded body, cutting it there. @default Infinity */
  readAtMost?: number;
}

/** Thrown into a decoding pipeline to stop it once `readAtMost` bytes were read. */
class BodyCut extends Error {}

const hasZstd = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';

/** The `accept-encoding` this engine can decode. */
export const ACCEPT_ENCODING = hasZstd ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br';

const EMPTY = new Uint8Array(0);

/**
 * A body's chunks as one byte array. Several are joined in shared memory: a page's bytes are read by a worker thread
 * (its decode, parse and extraction), and a `SharedArrayBuffer` crosses to it without a copy, where an `ArrayBuffer` is
 * copied into the worker's fresh memory (0.2-1 ms for a 150 KB page on a 2-core VM). The bytes are never written again.
 */
function joinBody(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 0) return EMPTY;
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(new SharedArrayBuffer(total));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The codings of a `content-encoding` header, in the order they were applied; `identity` dropped. */
export function parseContentEncoding(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
}

function isKnownCoding(coding: string): boolean {
  return (
    coding === 'gzip' ||
    coding === 'x-gzip' ||
    coding === 'deflate' ||
    coding === 'br' ||
    (coding === 'zstd' && hasZstd)
  );
}

function createDecoder(coding: string, firstByte: number | undefined): Transform {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      // Sync flush at the end tolerates truncated streams, as browsers do.
      return zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      // "deflate" should be zlib-wrapped (RFC 9110) but some servers send raw deflate: the first byte tells.
      return firstByte === undefined || (firstByte & 0x0f) === 0x08
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : zlib.createInflateRaw({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'br':
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return (zlib as unknown as { createZstdDecompress(): Transform }).createZstdDecompress();
  }
}

/** The message of a response part (`what`) past `limit` bytes, naming the option that raises it. */
export function tooLargeMessage(what: string, limit: number, option: keyof HttpLimits): string {
  return `The response ${what} exceeds the limit of ${limit} bytes (http.limits.${option}).`;
}

function tooLarge(url: string, limit: number, what: string, option: keyof HttpLimits): FetchError {
  return new FetchError('SCRAPE_RESPONSE_TOO_LARGE', tooLargeMessage(what, limit, option), { url });
}

/**
 * Reads a response body, removing its content codings, with every size limit checked while streaming:
 * `maxBodyBytes` on the wire, `maxDecompressedBytes` and `maxCompressionRatio` after decoding. With `keepWire` (a
 * recording), the encoded bytes are kept as well; with `readAtMost`, the body is cut after that many decoded bytes.
 */
export async function readBody(
  source: Readable,
  codings: string[],
  limits: HttpLimits,
  meter: BodyMeter,
  url: string,
  reading: BodyReading = {},
): Promise<ReadBody> {
  const keepWire = reading.keepWire ?? false;
  const cap = reading.readAtMost ?? Infinity;
  const known = codings.length > 0 && codings.every(isKnownCoding);
  if (!known) {
    const { body, truncated } = await readPlain(source, limits, meter, url, cap);
    return { body, decoded: codings.length === 0, ...(truncated ? { truncated } : {}) };
  }

  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  if (first.done) return { body: EMPTY, decoded: true };

  const wireChunks: Buffer[] = [];
  async function* wire(): AsyncGenerator<Buffer> {
    let chunk: Buffer = first.value as Buffer;
    for (;;) {
      meter.wireBytes += chunk.length;
      if (meter.wireBytes > limits.maxBodyBytes) throw tooLarge(url, limits.maxBodyBytes, 'body', 'maxBodyBytes');
      if (keepWire) wireChunks.push(chunk);
      yield chunk;
      const next = await iterator.next();
      if (next.done) return;
      chunk = next.value;
    }
  }

  const chunks: Buffer[] = [];
  let decodedBytes = 0;
  const sink = async (decoded: AsyncIterable<Buffer>) => {
    for await (const chunk of decoded) {
      if (decodedBytes + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - decodedBytes));
        decodedBytes = cap;
        throw new BodyCut();
      }
      decodedBytes += chunk.length;
      if (decodedBytes > limits.maxDecompressedBytes)
        throw tooLarge(url, limits.maxDecompressedBytes, 'decompressed body', 'maxDecompressedBytes');
      if (decodedBytes > RATIO_CHECK_FLOOR_BYTES && decodedBytes > meter.wireBytes * limits.maxCompressionRatio) {
        throw new FetchError(
          'SCRAPE_DECOMPRESSION_BOMB',
          `The response decompresses more than ${limits.maxCompressionRatio} times its size: refused as a decompression bomb.`,
          { url },
        );
      }
      chunks.push(chunk);
    }
  };

  // Codings are listed in the order applied, so they are undone from the last one.
  const order = [...codings].reverse();
  const decoders = order.map((coding, i) => createDecoder(coding, i === 0 ? first.value[0] : undefined));
  try {
    await (pipeline as (...stages: unknown[]) => Promise<void>)(wire(), ...decoders, sink);
  } catch (error) {
    discard(source);
    if (error instanceof BodyCut) return cutBody(chunks, decodedBytes, keepWire ? wireChunks : undefined);
    if (error instanceof FetchError) throw error;
    if (isZlibError(error)) {
      throw new FetchError('SCRAPE_DECODING_ERROR', `The response body is not valid ${codings.join(', ')} data.`, {
        url,
        cause: error,
      });
    }
    throw error;
  }
  const body = joinBody(chunks, decodedBytes);
  return keepWire ? { body, decoded: true, wire: Buffer.concat(wireChunks, meter.wireBytes) } : { body, decoded: true };
}

/** A decoded body cut at `readAtMost`, with the wire bytes read until then when kept. */
function cutBody(chunks: readonly Uint8Array[], total: number, wireChunks: Buffer[] | undefined): ReadBody {
  const body = joinBody(chunks, total);
  return wireChunks
    ? { body, decoded: true, truncated: true, wire: Buffer.concat(wireChunks) }
    : { body, decoded: true, truncated: true };
}

/** Event listeners rather than async iteration: a plain body is the hot path of every crawl. */
function readPlain(
  source: Readable,
  limits: HttpLimits,
  meter: BodyMeter,
  url: string,
  cap: number,
): Promise<{ body: Uint8Array; truncated?: true }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      if (total + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - total));
        meter.wireBytes = total + chunk.length;
        cleanup();
        discard(source);
        resolve({ body: joinBody(chunks, cap), truncated: true });
        return;
      }
      total += chunk.length;
      meter.wireBytes = total;
      if (total > limits.maxBodyBytes) {
        cleanup();
        discard(source);
        reject(tooLarge(url, limits.maxBodyBytes, 'body', 'maxBodyBytes'));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ body: joinBody(chunks, total) });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      // Destroyed without 'end' or 'error' (aborted before any data).
      cleanup();
      reject(new FetchError('SCRAPE_CONNECTION_ERROR', 'The response body was cut short.', { url, dropped: true }));
    };
    function cleanup() {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    }
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
  });
}

/** Destroys a body we stopped reading; the abort error it then emits has no one left to hear it. */
export function discard(source: Readable): void {
  source.on('error', noop);
  source.destroy();
}

function noop(): void {}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('Z_') ||
      code.startsWith('ERR_BROTLI') ||
      code.startsWith('ERR__ERROR_FORMAT') ||
      code.startsWith('ZSTD_') ||
      code === 'ERR_ZSTD_DECOMPRESSION_FAILED')
  );
}
