/**
 * How a call and its reply cross between the pool and a worker thread. On Node and Bun they go as they are. Deno's
 * `node:worker_threads` copies a `Uint8Array` at about 1 ms per KB on the receiving thread (2.2 s for a 2 MB page,
 * 10 s for 12 MB, Deno 2.9.6), against 1 ms for the same bytes as a string: its pages' bytes cross as Latin-1 strings
 * (one character a byte) and are made bytes again on the other side. Before, a page of a few MB kept its worker busy
 * receiving it for seconds, the pages behind it timed out waiting for a worker, and at a small `workers.maxMemoryMb`
 * the copy reached the thread's heap limit, where Deno stalls a thread rather than stopping it: every later page of
 * the process waited for that thread until its timeout.
 */
import { Buffer } from 'node:buffer';

/** Whether bytes cross as strings here: Deno only (on Node a string copy would cost what a shared buffer saves). */
export const BYTES_AS_TEXT = 'Deno' in globalThis;

/** The key of an object standing for bytes on the wire. */
const LATIN1 = '__crawlkitLatin1';

/** `value` with each `Uint8Array` in it (at any depth of its plain objects and arrays) as `{ __crawlkitLatin1 }`. */
export function toWire<T>(value: T, asText = BYTES_AS_TEXT): T {
  return asText ? (mapDeep(value, bytesToText) as T) : value;
}

/** `toWire` undone. */
export function fromWire<T>(value: T, asText = BYTES_AS_TEXT): T {
  return asText ? (mapDeep(value, textToBytes) as T) : value;
}

function bytesToText(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return undefined;
  return { [LATIN1]: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1') };
}

function textToBytes(value: unknown): unknown {
  const text = (value as Record<string, unknown> | null)?.[LATIN1];
  if (typeof text !== 'string') return undefined;
  const bytes = Buffer.from(text, 'latin1');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A copy of `value` with what `replace` answers (not undefined) in place of each value it recognises. */
function mapDeep(value: unknown, replace: (value: unknown) => unknown): unknown {
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) return value.map((item) => mapDeep(item, replace));
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = mapDeep(item, replace);
  return out;
}
