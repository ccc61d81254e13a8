// CommonMark round trip: for every example of the CommonMark spec, convert its expected HTML to markdown, render
// that back with the reference renderer (commonmark.js) and compare the two HTML documents after normalisation.
import { createRequire } from 'node:module';

import { HtmlRenderer, Parser as MarkdownParser } from 'commonmark';
import { Parser as HtmlParser } from 'htmlparser2';

export interface SpecExample {
  markdown: string;
  html: string;
  section: string;
  number: number;
}

export interface RoundTripFailure {
  example: SpecExample;
  markdown: string;
  expected: string;
  actual: string;
}

export interface RoundTripResult {
  passed: number;
  total: number;
  /** Pass rate, 0..1. */
  rate: number;
  /** The same over the examples whose HTML markdown has syntax for (`isExpressible`). */
  expressible: { passed: number; total: number };
  failures: RoundTripFailure[];
}

/** Elements CommonMark's own syntax produces; any other element in an example's HTML came from raw HTML. */
const MARKDOWN_ELEMENTS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'em', 'strong', 'a', 'img', 'code', 'pre']);
for (const name of ['blockquote', 'ul', 'ol', 'li', 'hr', 'br']) MARKDOWN_ELEMENTS.add(name);

/** Attributes CommonMark's syntax produces (`class` only as a code block's `language-*`). */
const MARKDOWN_ATTRIBUTES = new Set(['href', 'title', 'src', 'alt', 'start']);

/**
 * Whether markdown has syntax for everything in an example's expected HTML: no element or attribute that only raw
 * HTML passed through gives (`<div>`, `<table>`, `<del>`, a custom element, a `class`). The other examples round-trip
 * only for a converter that writes raw HTML into its markdown, which crawlkit's does not.
 */
export function isExpressible(example: SpecExample): boolean {
  let ok = true;
  const parser = new HtmlParser(
    {
      onopentag(name, attribs) {
        if (!MARKDOWN_ELEMENTS.has(name)) ok = false;
        for (const [key, value] of Object.entries(attribs)) {
          if (key === 'class' ? !(name === 'code' && value.startsWith('language-')) : !MARKDOWN_ATTRIBUTES.has(key)) {
            ok = false;
          }
        }
      },
    },
    { lowerCaseTags: false },
  );
  parser.end(example.html);
  return ok;
}

const require = createRequire(import.meta.url);

/** The examples of the CommonMark spec shipped in the `commonmark-spec` package. */
export function specExamples(): SpecExample[] {
  return (require('commonmark-spec') as { tests: SpecExample[] }).tests;
}

const BLOCK = new Set([
  'p',
  'li',
  'ul',
  'ol',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'div',
  'html',
  'body',
  'dl',
  'dt',
  'dd',
]);
const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'wbr']);

/**
 * A canonical form of an HTML fragment: entities decoded, attributes sorted, whitespace collapsed outside `<pre>`
 * and dropped next to block tags, void elements without end tags.
 */
export function normalizeHtml(html: string): string {
  const parts: string[] = [];
  let pre = 0;
  const trimEnd = (): void => {
    while (parts.length > 0) {
      const last = parts[parts.length - 1]!;
      if (last.startsWith('<')) return;
      const trimmed = last.replace(/\s+$/, '');
      if (trimmed === '') parts.pop();
      else {
        parts[parts.length - 1] = trimmed;
        return;
      }
    }
  };
  let afterBlock = true;
  const parser = new HtmlParser(
    {
      onopentag(name, attribs) {
        const block = BLOCK.has(name);
        if (block && pre === 0) trimEnd();
        const attrs = Object.keys(attribs)
          .sort()
          .map((k) => ` ${k}="${attribs[k]}"`)
          .join('');
        parts.push(`<${name}${attrs}>`);
        if (name === 'pre') pre++;
        afterBlock = block;
      },
      ontext(text) {
        if (pre > 0) {
          parts.push(text);
          return;
        }
        let t = text.replace(/\s+/g, ' ');
        if (afterBlock) t = t.replace(/^ /, '');
        if (t === '') return;
        parts.push(t);
        afterBlock = false;
      },
      onclosetag(name) {
        if (VOID.has(name)) return;
        const block = BLOCK.has(name);
        if (name === 'pre') pre--;
        if (block && pre === 0) trimEnd();
        parts.push(`</${name}>`);
        afterBlock = block;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return parts.join('').trim();
}

const reader = new MarkdownParser();
const writer = new HtmlRenderer();

/** Renders markdown to HTML with commonmark.js. */
export function renderMarkdown(markdown: string): string {
  return writer.render(reader.parse(markdown));
}

/** Runs the round trip of every spec example through `convert` (HTML → markdown). */
export function roundTrip(convert: (html: string) => string, examples = specExamples()): RoundTripResult {
  let passed = 0;
  const expressible = { passed: 0, total: 0 };
  const failures: RoundTripFailure[] = [];
  for (const example of examples) {
    const markdownCan = isExpressible(example);
    if (markdownCan) expressible.total++;
    const expected = normalizeHtml(example.html);
    let markdown: string;
    let actual: string;
    try {
      markdown = convert(example.html);
      actual = normalizeHtml(renderMarkdown(markdown));
    } catch (error) {
      markdown = `(threw: ${String(error)})`;
      actual = '';
    }
    if (actual === expected) {
      passed++;
      if (markdownCan) expressible.passed++;
    } else failures.push({ example, markdown, expected, actual });
  }
  return {
    passed,
    total: examples.length,
    rate: examples.length ? passed / examples.length : 0,
    expressible,
    failures,
  };
}
