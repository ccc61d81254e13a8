import type { JSHandle, Page } from 'puppeteer-core';

import type { JavascriptReturn } from '../types.js';

/** Thrown when the serialised return value is over the limit; the runner turns it into the action's error. */
export class ReturnTooLargeError extends Error {
  /** `bytes` is the size, or with `partial` how far writing it went before it passed `limit`. */
  constructor(bytes: number, limit: number, partial = false) {
    super(
      partial
        ? `the return value serialises to more than the limit of ${limit} bytes`
        : `the return value serialises to ${bytes} bytes, over the limit of ${limit} bytes`,
    );
    this.name = 'ReturnTooLargeError';
  }
}

/**
 * In-page: `typeof` the value and its JSON. What JSON cannot hold is turned into the nearest JSON rather than lost: DOM
 * nodes as their HTML, a `Map` as its `[key, value]` entries, a `Set` and a typed array as arrays, an `Error` as its
 * `name` and `message`, bigints, functions, symbols, `NaN` and `±Infinity` as strings, and a reference back to an
 * object being written as `"[Circular]"`. The JSON is left out when it is over `limit` bytes; the walk stops at 8
 * times that.
 */
const DESCRIBE = `(value, limit) => {
  const type = typeof value;
  const open = new Set();
  let bytes = 0;
  const tooLarge = {};
  const count = (n) => { bytes += n; if (bytes > limit * 8) throw tooLarge; };
  const plain = (v) => {
    count(4);
    if (typeof v === 'string') { count(v.length); return v; }
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') return plain(String(v));
    if (v === null || typeof v !== 'object') return v === undefined ? null : v;
    if (typeof v.nodeType === 'number') return plain(v.outerHTML ?? v.textContent);
    if (open.has(v)) return '[Circular]';
    open.add(v);
    try {
      if (typeof v.toJSON === 'function') return plain(v.toJSON());
      if (v instanceof Map) return Array.from(v, ([key, item]) => [plain(key), plain(item)]);
      if (v instanceof Set || (ArrayBuffer.isView(v) && !(v instanceof DataView))) return Array.from(v, plain);
      if (Array.isArray(v)) return v.map(plain);
      const out = v instanceof Error ? { name: v.name, message: v.message } : {};
      for (const key of Object.keys(v)) {
        let item;
        try { item = v[key]; } catch { continue; }
        if (item === undefined) continue;
        count(key.length);
        out[key] = plain(item);
      }
      return out;
    } finally {
      open.delete(v);
    }
  };
  let json;
  try {
    json = JSON.stringify(plain(value));
  } catch (error) {
    if (error === tooLarge) return { type, bytes, json: null, partial: true };
    json = JSON.stringify(String(value));
  }
  bytes = new TextEncoder().encode(json).length;
  return { type, bytes, json: bytes > limit ? null : json };
}`;

async function evaluateScript(page: Page, script: string): Promise<JSHandle> {
  try {
    return await page.evaluateHandle(script);
  } catch (error) {
    // A top-level `return` or `await` is not a valid script: run it as the body of an async function instead.
    if (
      error instanceof Error &&
      /Illegal return|await is only valid|Unexpected (?:token|identifier|reserved word)/i.test(error.message)
    ) {
      return page.evaluateHandle(`(async () => {\n${script}\n})()`).catch(() => Promise.reject(error));
    }
    throw error;
  }
}

/** The executeJavascript action: runs `script`, returns its value as `{ type, value }`. */
export async function executeJavascript(page: Page, script: string, maxBytes: number): Promise<JavascriptReturn> {
  const handle = await evaluateScript(page, script);
  try {
    const described = (await handle.evaluate(
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the describe function runs in the page
      new Function(`return (${DESCRIBE})(...arguments)`) as (value: unknown, limit: number) => unknown,
      maxBytes,
    )) as { type: string; bytes: number; json: string | null; partial?: boolean };
    if (described.json === null) throw new ReturnTooLargeError(described.bytes, maxBytes, described.partial);
    return { type: described.type, value: JSON.parse(described.json) as unknown };
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}
