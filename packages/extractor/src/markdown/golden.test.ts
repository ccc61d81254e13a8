import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { htmlToMarkdown, type MarkdownOptions } from './index.js';

// Golden files: fixtures/markdown/<case>.html converts to <case>.md (with <case>.options.json when present).
// `UPDATE_GOLDEN=1` rewrites the .md files from the current output (review the diff before committing).
const dir = fileURLToPath(new URL('../../../../fixtures/markdown/', import.meta.url));
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.html'))
  .map((f) => f.slice(0, -'.html'.length))
  .sort();

function load(name: string): { html: string; options: MarkdownOptions; expected: string | undefined } {
  const html = readFileSync(join(dir, `${name}.html`), 'utf8');
  const optionsFile = join(dir, `${name}.options.json`);
  const options = existsSync(optionsFile) ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as MarkdownOptions) : {};
  const mdFile = join(dir, `${name}.md`);
  const expected = existsSync(mdFile) ? readFileSync(mdFile, 'utf8').replace(/\n$/, '') : undefined;
  return { html, options, expected };
}

describe('golden files', () => {
  it('has a case for each construct', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  for (const name of cases) {
    it(name, () => {
      const { html, options, expected } = load(name);
      const actual = htmlToMarkdown(html, options);
      if (process.env.UPDATE_GOLDEN) writeFileSync(join(dir, `${name}.md`), actual + '\n');
      else expect(actual).toBe(expected);
      // The DOM path gives the same markdown as the streaming path.
      const dom = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
      expect(htmlToMarkdown(dom, options)).toBe(actual);
      // No trailing spaces, no runs of blank lines (outside code blocks, which keep their text exactly).
      const outsideCode = actual.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, 'CODE');
      expect(outsideCode).not.toMatch(/[ \t]+$/m);
      expect(outsideCode).not.toMatch(/\n{3,}/);
    });
  }
});
