/** extractMainContent never answers empty, survives odd input, and handles the fixture site pages. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Document } from 'domhandler';
import { findAll } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { count, extract, prose } from './__fixtures__/synthetic-page.js';

describe('extractMainContent: never empty, robust input', () => {
  it('returns the page text when nothing looks like content', () => {
    const { text } = extract('<html><body><div>Just one short line.</div></body></html>');
    expect(text).toBe('Just one short line.');
  });

  it('falls back to the whole page rather than nothing when all text is chrome', () => {
    const { text } = extract('<html><body><nav><a href="/a">Only</a> <a href="/b">links</a></nav></body></html>');
    expect(text).toContain('Only');
  });

  it('handles fragments without html/body', () => {
    const { text } = extract(`<div>${prose('fragment', 2)}</div><div>${prose('second', 2)}</div>`);
    expect(text).toContain('fragment paragraph 1');
    expect(text).toContain('second paragraph 2');
  });

  it('handles an empty document', () => {
    const { doc, text } = extract('');
    expect(text).toBe('');
    expect(doc.children.length).toBe(1);
  });

  it('recovers a page swallowed by an unclosed <![CDATA[ (HTML ends it at the first ">")', () => {
    const html = `<html><body><![CDATA[ theme marker ><div class="thread">${prose('cdata', 3)}</div></body></html>`;
    const { text } = extract(html);
    expect(text).toContain('cdata paragraph 1');
    expect(text).toContain('cdata paragraph 3');
    expect(text).not.toContain('theme marker');
  });

  it('reads content that a stray </body></html> left outside the body, as browsers do', () => {
    const { text } = extract(
      `<html><body><div class="top"><a href="/">Home</a></div></body></html><div class="post"><h1>After the end</h1>${prose('stray', 3)}</div>`,
    );
    expect(text).toContain('stray paragraph 3');
    const { text: inner } = extract(
      `<html><body><p>Intro.</p></body><div class="post">${prose('tail', 2)}</div></html>`,
    );
    expect(inner).toContain('tail paragraph 2');
  });

  it('survives very deep nesting without recursion', () => {
    const depth = 20000;
    const html = `<html><body>${'<div>'.repeat(depth)}${prose('deep', 2)}${'</div>'.repeat(depth)}</body></html>`;
    const { text } = extract(html);
    expect(text).toContain('deep paragraph 2');
  });
});

describe('extractMainContent: fixture site pages', () => {
  const fixture = (p: string): string =>
    readFileSync(fileURLToPath(new URL(`../../../../fixtures/site/${p}`, import.meta.url)), 'utf8');

  const posts = (root: Document): number =>
    findAll((el) => (el.attribs['class'] ?? '').split(' ').includes('post'), root.children).length;

  it('keeps every post of the fixture forum thread and drops its navigation and reply form', () => {
    const html = fixture('forum/thread.html');
    const all = posts(parseDocument(html));
    const { doc } = extract(html);
    expect(all).toBeGreaterThan(1);
    expect(posts(doc)).toBe(all);
    expect(count(doc, 'nav')).toBe(0);
    expect(count(doc, 'footer')).toBe(0);
  });
});
