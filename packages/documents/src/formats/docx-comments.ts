/**
 * A Word file's review comments (and an ODT's, an RTF file's), kept: a `## Comments` section after the body, one list
 * item per comment in the order the body refers to them, with its author (when the file names one) and the text it
 * is anchored to (the body's text between its `w:commentRangeStart` and `w:commentRangeEnd`, deleted text left out,
 * as the body reads). officeparser reads the comments and attaches each to the run before its reference; its
 * markdown leaves them out.
 */
import type { OfficeContentNode, OfficeParserAST } from 'officeparser';

import { textDecoder } from '@crawlkit/options/text-decoder';

import { officeMarkdown } from '../office.js';
import { decodeXml } from '../xml-text.js';
import { codepageOf, groupText } from './rtf-info.js';

/** Characters of an anchor quoted; a longer one is cut with an ellipsis. */
const MAX_ANCHOR = 200;
/** XML of a comment's range read for its anchor at most (a range over a whole long document stops here). */
const MAX_RANGE_XML = 64 * 1024;

/** The formats whose review comments are read. */
export type CommentedType = 'docx' | 'odt' | 'rtf';

interface Comment {
  id: string;
  author?: string;
  node: OfficeContentNode;
}

/** The comments of the tree, each once, in the order the body refers to them. */
function collect(nodes: readonly OfficeContentNode[] | undefined, found: Map<string, Comment>): void {
  for (const node of nodes ?? []) {
    for (const comment of (node as { comments?: OfficeContentNode[] }).comments ?? []) {
      const metadata = (comment.metadata ?? {}) as { commentId?: string; author?: string };
      const id = metadata.commentId ?? `#${found.size}`;
      if (!found.has(id)) found.set(id, { id, author: metadata.author?.trim() || undefined, node: comment });
    }
    collect(node.children, found);
  }
}

/** The body's text in a stretch of `word/document.xml`: its `w:t` runs and tabs (not `w:delText`). */
function rangeText(xml: string): string {
  let text = '';
  for (const [, tab, run] of xml.matchAll(/<w:(tab)\b[^>]*\/>|<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)) {
    text += tab ? ' ' : decodeXml(run ?? '');
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** The body's part, read as text in the zip guard's pass (`zip/parts.ts`) for the comments' anchors. */
export const BODY_PART = 'word/document.xml';

/** An anchor's text, cut with an ellipsis past `MAX_ANCHOR` characters. */
const cut = (text: string) => (text.length > MAX_ANCHOR ? `${text.slice(0, MAX_ANCHOR - 1).trimEnd()}…` : text);

/**
 * An ODT's comments' anchored text, by `#index` (officeparser gives an ODT's comments no id: they are matched in the
 * body's order), from `content.xml`: the text between each `office:annotation` and the `office:annotation-end` of
 * its `office:name`.
 */
export function odtAnchors(content: string | undefined): Map<string, string> {
  const found = new Map<string, string>();
  if (content === undefined) return found;
  for (const [index, mark] of [...content.matchAll(/<office:annotation\b([^>]*)>/g)].entries()) {
    const name = /\boffice:name="([^"]*)"/.exec(mark[1] ?? '')?.[1];
    const from = content.indexOf('</office:annotation>', mark.index);
    const end = name === undefined ? -1 : content.indexOf(`<office:annotation-end office:name="${name}"`, from);
    if (from === -1 || end === -1) continue;
    const text = decodeXml(content.slice(from, Math.min(end, from + MAX_RANGE_XML)).replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
    if (text) found.set(`#${index}`, cut(text));
  }
  return found;
}

/** The end of the RTF group opening at `start` (the index past its `}`), or the text's end. */
function groupEnd(rtf: string, start: number): number {
  let depth = 0;
  for (let at = start; at < rtf.length; at++) {
    if (rtf[at] === '\\') at++;
    else if (rtf[at] === '{') depth++;
    else if (rtf[at] === '}' && --depth === 0) return at + 1;
  }
  return rtf.length;
}

/**
 * An RTF file's comments' anchored text, by `#index` (officeparser gives them no id: they are matched in the body's
 * order): for each `\annotation` whose `{\*\atnref N}` names a range, the text between `{\*\atrfstart N}` and
 * `{\*\atrfend N}` (other ignorable groups in it left out).
 */
export function rtfAnchors(bytes: Uint8Array): Map<string, string> {
  const found = new Map<string, string>();
  const rtf = textDecoder('latin1').decode(bytes);
  const codepage = codepageOf(rtf.slice(0, 4096));
  for (const [index, mark] of [...rtf.matchAll(/\{(?:\\\*)?\\annotation\b/g)].entries()) {
    const group = rtf.slice(mark.index, groupEnd(rtf, mark.index));
    const ref = /\{\\\*\\atnref\s*([^{}\\]+?)\s*\}/.exec(group)?.[1];
    if (ref === undefined) continue;
    const start = rtf.indexOf(`{\\*\\atrfstart ${ref}}`);
    const end = start === -1 ? -1 : rtf.indexOf(`{\\*\\atrfend ${ref}}`, start);
    if (end === -1) continue;
    const range = rtf.slice(start + `{\\*\\atrfstart ${ref}}`.length, Math.min(end, start + MAX_RANGE_XML));
    const text = groupText(range.replace(/\{\\\*\\[^{}]*\}/g, ''), codepage);
    if (text) found.set(`#${index}`, cut(text));
  }
  return found;
}

/** Each comment's anchored text, by its id, from the body's range marks (absent where the file has none). */
export function docxAnchors(xml: string | undefined, ids: ReadonlySet<string>): Map<string, string> {
  const found = new Map<string, string>();
  if (xml === undefined) return found;
  const starts = new Map<string, number>();
  for (const mark of xml.matchAll(/<w:commentRange(Start|End)\b[^>]*?\bw:id="(\d+)"/g)) {
    const [, kind, id = ''] = mark;
    if (!ids.has(id)) continue;
    const start = starts.get(id);
    if (kind === 'Start') {
      if (start === undefined) starts.set(id, mark.index);
      continue;
    }
    if (start === undefined || found.has(id)) continue;
    const end = mark.index;
    const text = rangeText(xml.slice(start, Math.min(end, start + MAX_RANGE_XML)));
    if (text) found.set(id, cut(text));
  }
  return found;
}

const text = (value: string, bold = false): OfficeContentNode => ({
  type: 'text',
  text: value,
  ...(bold ? { formatting: { bold: true } } : {}),
});

/** Markdown of one line of text nodes, escaped as the body's text is. */
function line(ast: OfficeParserAST, type: CommentedType, children: OfficeContentNode[]): Promise<string> {
  return officeMarkdown(ast, type, { content: [{ type: 'paragraph', children }] });
}

/**
 * The `## Comments` section of a DOCX, an ODT or an RTF file (empty when it has none): `- **Author** on “anchor”:
 * text`, a comment's further paragraphs indented under its item. `anchorsOf` gives the anchors of the comments' ids
 * (`docxAnchors`, `odtAnchors`, `rtfAnchors`).
 */
export async function commentsSection(
  ast: OfficeParserAST,
  type: CommentedType,
  anchorsOf: (ids: ReadonlySet<string>) => Map<string, string>,
  deadline?: number,
): Promise<string> {
  const found = new Map<string, Comment>();
  collect(ast.content, found);
  if (found.size === 0) return '';
  const anchored = anchorsOf(new Set(found.keys()));
  const items: string[] = [];
  for (const { id, author, node } of found.values()) {
    const anchor = anchored.get(id);
    const head = [
      ...(author ? [text(author, true)] : []),
      ...(anchor ? [text(`${author ? ' on' : 'On'} “`), text(anchor), text('”')] : []),
    ];
    const prefix = head.length ? `${await line(ast, type, head)}: ` : '';
    const body = node.children?.length
      ? await officeMarkdown(ast, type, { content: node.children, deadline })
      : await line(ast, type, [text(node.text ?? '')]);
    const [first = '', ...rest] = body.split('\n');
    items.push([`- ${prefix}${first}`, ...rest.map((l) => (l ? `  ${l}` : l))].join('\n').trimEnd());
  }
  return `## Comments\n\n${items.join('\n')}`;
}

/**
 * Revisions Word tracks and nobody accepted or rejected yet in the body (`w:ins`, `w:del`, `w:moveFrom`, `w:moveTo`):
 * the markdown reads them as accepted, and `metadata.trackedChanges` counts them.
 */
export function trackedChanges(xml: string | undefined): number {
  return xml?.match(/<w:(?:ins|del|moveFrom|moveTo)[\s>/]/g)?.length ?? 0;
}
