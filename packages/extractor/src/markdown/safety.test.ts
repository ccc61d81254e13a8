import { describe, expect, it } from 'vitest';

import { parseHtml } from '../dom/parse.js';
import { htmlToMarkdown, MarkdownBudgetError } from './index.js';

/**
 * Time allowed per conversion in these tests, and the slack on top of it: the parse before the first cooperative
 * check and the last check's step, which a loaded machine (a full suite beside other work) stretches to seconds.
 * What this catches is a conversion that does not give up: those ran for tens of seconds or never ended.
 */
const BUDGET_MS = 1500;
const MARGIN_MS = 4500;

const nested = (open: string, close: string, depth: number, inner = 'x'): string =>
  open.repeat(depth) + inner + close.repeat(depth);

const words = (chars: number): string => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27)).slice(0, chars);

function wideTable(columns: number, rows: number): string {
  const row = (tag: string, r: number) =>
    `<tr>${Array.from({ length: columns }, (_, c) => `<${tag}>${r}:${c}</${tag}>`).join('')}</tr>`;
  return `<table>${row('th', 0)}${Array.from({ length: rows }, (_, r) => row('td', r + 1)).join('')}</table>`;
}

const pathological: Record<string, () => string> = {
  '100k nested divs': () => nested('<div>', '</div>', 100_000),
  // each may hold TeX source for MathJax (`tex-source.ts`): recorded, then replayed once, never again inside
  '100k nested math divs': () => nested('<div class="math">', '</div>', 100_000, '<p>x</p>'),
  '100k nested spans': () => nested('<span>', '</span>', 100_000),
  '100k nested blockquotes': () => nested('<blockquote>', '</blockquote>', 100_000),
  '100k nested lists': () => nested('<ul><li>', '</li></ul>', 100_000),
  '20k nested tables': () => nested('<table><tr><td>', '</td></tr></table>', 20_000),
  '100k nested emphasis': () => nested('<em><strong>', '</strong></em>', 100_000),
  '100k nested links': () => nested('<a href="/x">', '</a>', 100_000),
  '100k unclosed paragraphs and items': () => '<p>a<li>b'.repeat(100_000),
  '50 MB single line of text': () => `<p>${words(50_000_000)}</p>`,
  '10k-column table': () => wideTable(10_000, 3),
  'a million markdown-looking characters': () => `<p>${'*_[]`<&!\\#'.repeat(100_000)}</p>`,
};

/** Converts with a deadline; returns the markdown, or undefined when the budget ran out. */
function convert(
  input: Parameters<typeof htmlToMarkdown>[0],
  rawHtml = false,
): { markdown: string | undefined; elapsed: number } {
  const started = Date.now();
  try {
    const markdown = htmlToMarkdown(input, { deadline: started + BUDGET_MS, rawHtml });
    return { markdown, elapsed: Date.now() - started };
  } catch (error) {
    expect(error).toBeInstanceOf(MarkdownBudgetError);
    expect((error as MarkdownBudgetError).code).toBe('MARKDOWN_BUDGET_EXCEEDED');
    return { markdown: undefined, elapsed: Date.now() - started };
  }
}

describe('pathological input: finishes or gives up within the budget, never hangs or overflows the stack', () => {
  for (const [name, build] of Object.entries(pathological)) {
    it(`${name} (string)`, () => {
      const { markdown, elapsed } = convert(build());
      expect(elapsed).toBeLessThan(BUDGET_MS + MARGIN_MS);
      if (markdown !== undefined) expect(markdown.length).toBeGreaterThan(0);
    });
  }

  for (const name of ['100k nested divs', '100k nested lists', '100k nested blockquotes', '10k-column table']) {
    it(`${name} (DOM)`, () => {
      const dom = parseHtml(pathological[name]!());
      const { markdown, elapsed } = convert(dom);
      expect(elapsed).toBeLessThan(BUDGET_MS + MARGIN_MS);
      if (markdown !== undefined) expect(markdown.length).toBeGreaterThan(0);
    });
  }

  // raw-HTML mode records an HTML element's subtree before writing it, and replays it when its content is blocks
  const rawHtmlCases: Record<string, () => string> = {
    '100k nested divs': pathological['100k nested divs']!,
    '100k nested divs around paragraphs': () => nested('<div><p>a</p>', '</div>', 100_000),
    '100k nested custom elements': () => nested('<x-a>', '</x-a>', 100_000),
    '100k nested del in a paragraph': () => `<p>${nested('<del>', '</del>', 100_000)}</p>`,
    '20k nested tables': pathological['20k nested tables']!,
    '10k-column table': pathological['10k-column table']!,
  };
  for (const [name, build] of Object.entries(rawHtmlCases)) {
    it(`${name} (string, raw-HTML mode)`, () => {
      const { markdown, elapsed } = convert(build(), true);
      expect(elapsed).toBeLessThan(BUDGET_MS + MARGIN_MS);
      if (markdown !== undefined) expect(markdown.length).toBeGreaterThan(0);
    });
  }

  it('converts 100k nested divs completely when there is no deadline', () => {
    expect(htmlToMarkdown(nested('<div>', '</div>', 100_000, 'deep text'))).toBe('deep text');
    expect(htmlToMarkdown(parseHtml(nested('<div>', '</div>', 100_000, 'deep text')))).toBe('deep text');
  });

  it('converts 100k nested elements classed `math` completely, in linear time, when there is no deadline', () => {
    const started = Date.now();
    expect(htmlToMarkdown(pathological['100k nested math divs']!())).toBe('x');
    expect(Date.now() - started).toBeLessThan(BUDGET_MS + MARGIN_MS);
  });

  it('keeps a 10k-column table a table', () => {
    const markdown = htmlToMarkdown(wideTable(10_000, 2));
    const lines = markdown.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]!.split('---')).toHaveLength(10_001);
    expect(lines[3]!.startsWith('| 2:0 | 2:1 |')).toBe(true);
  });

  it('throws MarkdownBudgetError at once when the deadline has passed', () => {
    expect(() => htmlToMarkdown('<p>late</p>', { deadline: Date.now() - 1 })).toThrow(MarkdownBudgetError);
  });

  it('gives up on a slow conversion with a short budget instead of finishing late', () => {
    const html = `<p>${words(50_000_000)}</p>`;
    // the template literal is a rope: reading it flattens 50 MB, which is building the input, not converting it
    html.charCodeAt(0);
    const started = Date.now();
    expect(() => htmlToMarkdown(html, { deadline: started + 20 })).toThrow(MarkdownBudgetError);
    expect(Date.now() - started).toBeLessThan(20 + MARGIN_MS);
  });
});
