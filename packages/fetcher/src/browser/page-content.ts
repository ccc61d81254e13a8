import type { Page } from 'puppeteer-core';

import { FetchError } from '../errors.js';
import { redactUrl } from '../policy/url-policy.js';

/** Characters per CDP message when a rendered page is read: each message is parsed on the Node main thread. */
export const CONTENT_CHUNK_CHARS = 1 << 20;

/** The document as `page.content()` serialises it: each top-level node, the root element by its `outerHTML`. */
const SERIALIZE = `(() => {
  let html = '';
  for (const node of document.childNodes) {
    html += node === document.documentElement ? node.outerHTML : new XMLSerializer().serializeToString(node);
  }
  return { html };
})()`;

/**
 * The rendered page's HTML, as `page.content()` gives it, read in slices of `CONTENT_CHUNK_CHARS`: puppeteer parses
 * every CDP message on the event loop, so a script-built DOM of tens of megabytes would otherwise hold it for the
 * whole message (~0.7 s at 20 MB on the bench machine). A document over `maxChars` is refused before any of it is
 * sent, as an HTTP body over `maxBodyBytes` is.
 */
export async function readPageContent(page: Page, maxChars: number, url: string): Promise<string> {
  const handle = await page.evaluateHandle(SERIALIZE);
  try {
    const length = await handle.evaluate((o) => (o as { html: string }).html.length);
    if (length > maxChars) {
      throw new FetchError(
        'SCRAPE_RESPONSE_TOO_LARGE',
        `The rendered page (${length} characters) exceeds the limit of ${maxChars} bytes (http.limits.maxBodyBytes).`,
        { url: redactUrl(url) },
      );
    }
    const parts: string[] = [];
    for (let at = 0; at < length || parts.length === 0; at += CONTENT_CHUNK_CHARS) {
      parts.push(
        await handle.evaluate(
          (o, from, size) => (o as { html: string }).html.slice(from, from + size),
          at,
          CONTENT_CHUNK_CHARS,
        ),
      );
    }
    return parts.length === 1 ? parts[0]! : parts.join('');
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}
