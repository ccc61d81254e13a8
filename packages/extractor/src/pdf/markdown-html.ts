/**
 * The HTML of a PDF, read back from the markdown `extractPdf` writes (`structure.ts`): its headings, lists (nested by
 * four spaces), tables and paragraphs, each block separated by a blank line. Only that markdown is read: OCR'd pages,
 * plain paragraphs of lines, come out as paragraphs.
 */

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const HEADING = /^(#{1,6}) (.+)$/;
const ITEM = /^((?: {4})*)(-|\d+\.) (.*)$/;

function list(lines: string[]): string {
  let html = '';
  /** The open lists, innermost last: their tag. */
  const open: string[] = [];
  for (const line of lines) {
    const [, indent = '', marker = '-', text = ''] = ITEM.exec(line)!;
    const depth = Math.min(indent.length / 4, open.length);
    while (open.length > depth + 1) html += `</li></${open.pop()}>`;
    if (open.length === depth + 1) html += '</li>';
    else {
      const tag = marker === '-' ? 'ul' : 'ol';
      const start = tag === 'ol' && marker !== '1.' ? ` start="${parseInt(marker, 10)}"` : '';
      html += `<${tag}${start}>`;
      open.push(tag);
    }
    html += `<li>${escape(text)}`;
  }
  while (open.length) html += `</li></${open.pop()}>`;
  return html;
}

/** A table row's cells: split at each `|` not escaped. */
const cells = (row: string): string[] =>
  row
    .replace(/^\| | \|$/g, '')
    .split(/ \| /)
    .map((cell) => cell.replace(/\\([|\\])/g, '$1'));

function table(lines: string[]): string {
  const [head, , ...body] = lines;
  const row = (line: string, tag: string) =>
    `<tr>${cells(line)
      .map((c) => `<${tag}>${escape(c)}</${tag}>`)
      .join('')}</tr>`;
  return `<table><thead>${row(head!, 'th')}</thead><tbody>${body.map((line) => row(line, 'td')).join('')}</tbody></table>`;
}

/** The markdown of a PDF as an HTML document. */
export function pdfMarkdownToHtml(markdown: string): string {
  const blocks = markdown
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const lines = block.split('\n');
      const heading = lines.length === 1 ? HEADING.exec(block) : null;
      if (heading) return `<h${heading[1]!.length}>${escape(heading[2]!)}</h${heading[1]!.length}>`;
      if (lines.every((line) => ITEM.test(line)) && !lines[0]!.startsWith(' ')) return list(lines);
      if (lines.length > 2 && lines.every((line) => /^\|.*\|$/.test(line)) && /^\|( --- \|)+$/.test(lines[1]!)) {
        return table(lines);
      }
      // a paragraph escaped as it opened like markdown (`literal` in structure.ts)
      return `<p>${escape(block.replace(/^\\(?=[#>|`~\-+*_=\d])/, ''))}</p>`;
    });
  return `<html><body>${blocks.join('')}</body></html>`;
}
