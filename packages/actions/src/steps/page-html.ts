import type { Page } from 'puppeteer-core';

/** Characters per CDP message when a page's HTML is read: each message is parsed on the Node main thread. */
export const HTML_CHUNK_CHARS = 1 << 20;

/** A page's document is longer than the limit it is read under; nothing of it was sent. */
export class PageTooLargeError extends Error {
  readonly length: number;
  readonly limit: number;

  constructor(length: number, limit: number) {
    super(`the page's document is ${length} characters long, over the limit of ${limit}`);
    this.name = 'PageTooLargeError';
    this.length = length;
    this.limit = limit;
  }
}

/**
 * The document as `page.content()` serialises it (each top-level node, the root element by its `outerHTML`), except
 * that open shadow roots are flattened into it: a host's shadow tree stands in for its children, each `<slot>` replaced
 * by the nodes assigned to it (or its fallback content), as the page is shown. Without that, a page built of web
 * components came out as its empty hosts. The same way, an `<iframe>` whose document the page can reach (same
 * origin, `srcdoc`) and that is shown is replaced by a `<div data-original-tag="iframe">` keeping its attributes and
 * holding its document's body, as Firecrawl's browser does (v2's `includeTags: ['iframe']` selects that div); a
 * cross-origin frame stays an `<iframe>`. The flat copy is built in an inert document (no custom element is
 * upgraded, no script runs, nothing loads), and only when the page has a shadow root or such a frame; closed roots
 * stay out of reach.
 */
const SERIALIZE = `() => {
  const frameBody = (node) => {
    if (node.localName !== 'iframe' || node.getClientRects().length === 0) return null;
    try { return node.contentDocument?.body ?? null; } catch { return null; }
  };
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
  let flatten = false;
  while (!flatten && walker.nextNode()) {
    flatten = walker.currentNode.shadowRoot != null || frameBody(walker.currentNode) != null;
  }
  let flat;
  if (flatten) {
    const inert = document.implementation.createHTMLDocument('');
    const copy = (node) => {
      if (node.nodeType !== 1 || node.localName === 'template') return inert.importNode(node, true);
      const body = frameBody(node);
      let out;
      if (body) {
        out = inert.createElement('div');
        for (const a of node.attributes) if (a.name !== 'srcdoc') out.setAttribute(a.name, a.value);
        out.setAttribute('data-original-tag', 'iframe');
      } else out = inert.importNode(node, false);
      const add = (child) => {
        // A slot of a shadow tree (its root a fragment, the ShadowRoot of whichever frame's realm).
        if (child.nodeType === 1 && child.localName === 'slot' && child.getRootNode().nodeType === 11) {
          const assigned = child.assignedNodes({ flatten: true });
          for (const n of assigned.length ? assigned : child.childNodes) out.appendChild(copy(n));
        } else out.appendChild(copy(child));
      };
      for (const child of (body ?? node.shadowRoot ?? node).childNodes) add(child);
      return out;
    };
    flat = copy(document.documentElement);
  }
  let html = '';
  for (const node of document.childNodes) {
    if (node !== document.documentElement) html += new XMLSerializer().serializeToString(node);
    else html += (flat ?? node).outerHTML;
  }
  return html;
}`;

/** What a read of a document that the page left while it was read fails with: its JavaScript context went with it. */
export const LEFT_DOCUMENT = /Execution context was destroyed|same JavaScript world|Cannot find context|detached/i;

/** How many times the HTML is read when the page navigates during the read (a redirect by script, a meta refresh). */
const READ_ATTEMPTS = 3;

/** Options of `readPageHtml`. */
export interface ReadPageHtmlOptions {
  /**
   * How long to wait for the next document's DOM when the page navigates during the read, in milliseconds.
   * @default 10000
   */
  timeoutMs?: number;
  /** Ends that wait early. */
  signal?: AbortSignal;
}

/**
 * The page's HTML, as `page.content()` gives it. A page of up to `HTML_CHUNK_CHARS` comes in one round trip, as
 * from `page.content()`. A longer one is read in slices of that size: puppeteer parses every CDP message on the event
 * loop, so a script-built DOM of tens of megabytes would otherwise hold it for the whole message (~0.7 s at 20 MB on
 * the bench machine). A document over `maxChars` throws `PageTooLargeError` before any of it is sent.
 *
 * A navigation that commits during the read (it fails with "Execution context was destroyed") is waited for, and the
 * document it led to is read, as a navigation caused by an action is followed.
 */
export async function readPageHtml(page: Page, maxChars: number, options: ReadPageHtmlOptions = {}): Promise<string> {
  const until = Date.now() + (options.timeoutMs ?? 10_000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(page, maxChars);
    } catch (error) {
      if (attempt === READ_ATTEMPTS || !(error instanceof Error) || !LEFT_DOCUMENT.test(error.message)) throw error;
      await page.waitForFunction("document.readyState !== 'loading'", {
        polling: 20,
        timeout: Math.max(1, until - Date.now()),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    }
  }
}

async function readOnce(page: Page, maxChars: number): Promise<string> {
  const oneMessage = Math.min(HTML_CHUNK_CHARS, maxChars);
  const small = await page.evaluate(
    `(() => { const html = (${SERIALIZE})(); return html.length <= ${oneMessage} ? html : html.length; })()`,
  );
  if (typeof small === 'string') return small;
  const length = small as number;
  if (length > maxChars) throw new PageTooLargeError(length, maxChars);
  // Serialised again, kept in the page behind a handle, and read slice by slice.
  const handle = await page.evaluateHandle(`({ html: (${SERIALIZE})() })`);
  try {
    const parts: string[] = [];
    for (let at = 0; at < length; at += HTML_CHUNK_CHARS) {
      parts.push(
        await handle.evaluate(
          (o, from, size) => (o as { html: string }).html.slice(from, from + size),
          at,
          HTML_CHUNK_CHARS,
        ),
      );
    }
    return parts.join('');
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}
