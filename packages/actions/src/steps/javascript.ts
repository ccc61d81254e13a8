import type { JSHandle, Page } from 'puppeteer-core';

import type { JavascriptReturn } from '../types.js';

/** Thrown when the serialised return value is over the limit; the runner turns it into the action's error. */
export class ReturnTooLargeError extends Error {
  constructor(bytes: number, limit: number) {
    super(`the return value serialises to ${bytes} bytes, over the limit of ${limit} bytes`);
    this.name = 'ReturnTooLargeError';
  }
}

/**
 * In-page: `typeof` the value and its JSON, with DOM nodes as their HTML, bigints as strings and anything that
 * cannot be serialised as its string form. The JSON is left out when it is larger than `limit` bytes.
 */
const DESCRIBE = `(value, limit) => {
  const type = typeof value;
  const replacer = (_key, v) => {
    if (typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') return String(v);
    if (v && typeof v === 'object' && typeof v.nodeType === 'number') return v.outerHTML ?? v.textContent;
    return v;
  };
  let json;
  try { json = JSON.stringify(value, replacer); } catch { json = JSON.stringify(String(value)); }
  if (json === undefined) json = type === 'undefined' ? 'null' : JSON.stringify(String(value));
  const bytes = new TextEncoder().encode(json).length;
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
    )) as { type: string; bytes: number; json: string | null };
    if (described.json === null) throw new ReturnTooLargeError(described.bytes, maxBytes);
    return { type: described.type, value: JSON.parse(described.json) as unknown };
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}
