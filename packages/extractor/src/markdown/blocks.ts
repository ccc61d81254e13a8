import type { Block } from './container.js';

/** Prefixes the first line with `first`, every other non-empty line with `rest`, empty lines with `blank`. */
export function prefixLines(text: string, first: string, rest: string, blank: string): string {
  if (text === '') return first.trimEnd();
  if (!text.includes('\n')) return first + text;
  const lines = text.split('\n');
  lines[0] = lines[0] === '' ? first.trimEnd() : first + lines[0];
  for (let i = 1; i < lines.length; i++) lines[i] = lines[i] === '' ? blank : rest + lines[i];
  return lines.join('\n');
}

/**
 * What goes between two blocks of a tight list item: a single newline where CommonMark keeps the blocks apart,
 * a hard break between two paragraphs, and a blank line where anything less would merge or reinterpret them.
 */
function tightSeparator(a: Block, b: Block): string {
  if (b.kind === 'hr' || b.kind === 'table' || b.kind === 'other') return '\n\n';
  // An ordered list not starting at 1 cannot interrupt a paragraph.
  if (b.kind === 'list' && b.start !== undefined && b.start !== 1) return '\n\n';
  if (a.kind === 'p') return b.kind === 'p' ? '\\\n' : '\n';
  if (a.kind === 'heading' || a.kind === 'code' || a.kind === 'hr' || a.kind === 'math') return '\n';
  // After a list, quote, table or definition, a plain line would continue it (lazily) and a quote would merge.
  if (b.kind === 'p' || b.kind === 'dd' || a.kind === b.kind)
    return a.kind === 'list' && b.kind === 'list' ? '\n' : '\n\n';
  return a.kind === 'table' || a.kind === 'other' ? '\n\n' : '\n';
}

/** Joins blocks: blank lines between them, or (tight list items) as little as keeps them apart. */
export function joinBlocks(blocks: readonly Block[], tight: boolean): string {
  if (blocks.length === 0) return '';
  if (!tight) return blocks.length === 1 ? blocks[0]!.text : blocks.map((b) => b.text).join('\n\n');
  let out = blocks[0]!.text;
  for (let i = 1; i < blocks.length; i++) out += tightSeparator(blocks[i - 1]!, blocks[i]!) + blocks[i]!.text;
  return out;
}
