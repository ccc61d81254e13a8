// Synthetic pages for the extractMainContent tests: paragraphs of prose about a topic, the usual page chrome (header
// with navigation, cookie bar, sidebar, footer, scripts) around a main part, and the extracted text.
import type { Document } from 'domhandler';
import { getElementsByTagName, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';

import { extractMainContent } from '../index.js';

export const prose = (topic: string, n = 3): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic} paragraph ${i + 1}: this sentence carries real information about ${topic}, with commas, clauses and a full stop. It goes on a little, so that it reads like prose rather than a label.</p>`,
  ).join('\n');

const chrome = {
  header: `<header class="site-header"><a href="/">Logo</a><nav><ul><li><a href="/a">Home</a></li><li><a href="/b">Products</a></li><li><a href="/c">About us</a></li><li><a href="/d">Contact</a></li></ul></nav></header>`,
  cookie: `<div id="cookie-banner" class="cookie-consent"><p>We use cookies to improve your experience. By continuing you accept our cookie policy.</p><button>Accept all cookies</button></div>`,
  footer: `<footer><p>© 2026 Example Corp. All rights reserved.</p><ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms of use</a></li></ul></footer>`,
  sidebar: `<aside class="sidebar"><h3>Popular posts</h3><ul><li><a href="/p1">Ten tips for gardens</a></li><li><a href="/p2">Why soil matters</a></li><li><a href="/p3">Winter pruning</a></li></ul></aside>`,
};

export function page(main: string, { head = '', before = '', after = '' } = {}): string {
  return `<!doctype html><html><head><title>T</title>${head}<script>var tracking = "script text never shows";</script><style>.x{color:red}</style></head><body>${chrome.cookie}${chrome.header}${before}${main}${after}${chrome.sidebar}${chrome.footer}<script>window.x=1</script></body></html>`;
}

export function extract(html: string): { doc: Document; text: string } {
  const doc = extractMainContent(parseDocument(html), { url: 'https://example.test/page' });
  return { doc, text: textContent(doc).replace(/\s+/g, ' ').trim() };
}

export function count(doc: Document, tag: string): number {
  return getElementsByTagName(tag, doc.children, true).length;
}
