/**
 * The fenced code blocks of the READMEs, with the hidden `<!-- snippet ... -->` comments written before each, for
 * `test/readme-snippets.test.ts`. A directive is an HTML comment on the lines just above a fence (blank lines may sit
 * between); several may stack:
 * - `<!-- snippet skip: reason -->`: the block is not checked (a type listing, a fragment); say why.
 * - `<!-- snippet continues -->`: a ```ts block goes on from the previous ```ts block of the file, as one module (it
 *   uses the `ck` that one declared).
 * - `<!-- snippet given: declarations -->`: TypeScript placed before the block, unseen by the reader, for the names it
 *   takes from its surroundings (`declare const url: string;`). It may span several lines.
 * - `<!-- snippet crawlkit.config.json -->`: a ```json block that is a settings file, read by `crawlkit serve`'s reader.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CodeBlock {
  /** The README's path from the repository's root. */
  file: string;
  /** The language after the fence: `ts`, `sh`, `json`, or empty. */
  lang: string;
  /** The 1-based line of the block's first line of code (the line after the fence). */
  line: number;
  code: string;
  skip?: string;
  continues: boolean;
  given: string[];
  /** `<!-- snippet crawlkit.config.json -->` (or another kind named the same way). */
  kind?: string;
}

const DIRECTIVE = /^<!--\s*snippet\b([\s\S]*?)-->$/;

/** `README.md` and `packages/*\/README.md` of the repository at `root`. */
export function readmeFiles(root: string): string[] {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `packages/${entry.name}/README.md`)
    .filter((file) => {
      try {
        readFileSync(join(root, file));
        return true;
      } catch {
        return false;
      }
    })
    .sort();
  return ['README.md', ...packages];
}

/** The directives in the comments ending just above line `index` (0-based) of `lines`. */
function directivesAbove(lines: string[], index: number): string[] {
  const found: string[] = [];
  let end = index - 1;
  while (end >= 0) {
    if (lines[end]!.trim() === '') {
      end--;
      continue;
    }
    if (!lines[end]!.trimEnd().endsWith('-->')) break;
    let start = end;
    while (start > 0 && !lines[start]!.trimStart().startsWith('<!--')) start--;
    const match = DIRECTIVE.exec(
      lines
        .slice(start, end + 1)
        .join('\n')
        .trim(),
    );
    if (!match) break;
    found.unshift(match[1]!.trim());
    end = start - 1;
  }
  return found;
}

/** The fenced code blocks of one markdown text. */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    // A fence may be indented, as in a list item: its lines lose that indent.
    const open = /^( *)(`{3,})(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence] = open as unknown as [string, string, string];
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== fence) end++;
    const block: CodeBlock = {
      file,
      lang: open[3]!,
      line: i + 2,
      code: lines
        .slice(i + 1, end)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
        .join('\n'),
      continues: false,
      given: [],
    };
    for (const directive of directivesAbove(lines, i)) {
      if (directive === 'continues') block.continues = true;
      else if (directive.startsWith('skip:')) block.skip = directive.slice('skip:'.length).trim();
      else if (directive.startsWith('given:')) block.given.push(directive.slice('given:'.length).trim());
      else if (/^[\w.-]+$/.test(directive)) block.kind = directive;
      else throw new Error(`${file}:${i + 1}: unknown snippet directive "${directive}"`);
    }
    blocks.push(block);
    i = end;
  }
  return blocks;
}

/** Every fenced block of the READMEs of the repository at `root`. */
export function readmeBlocks(root: string): CodeBlock[] {
  return readmeFiles(root).flatMap((file) => codeBlocks(file, readFileSync(join(root, file), 'utf8')));
}
