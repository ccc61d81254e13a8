import { isCDATA, isDocument, isTag, isText, type AnyNode } from 'domhandler';
import { Parser } from 'htmlparser2';

import type { Budget } from './budget.js';

/** What the drivers feed: start tags (false skips the subtree, and its end tag), text, end tags. */
export interface HtmlSink {
  open(name: string, attribs: Record<string, string>): boolean;
  text(data: string): void;
  close(name: string): void;
}

/** Input is fed to the parser in slices of this many characters, with a budget check between them. */
const WRITE_CHUNK = 1 << 20;
/** Adjacent text pieces (the parser splits text at entities) are joined up to this length. */
const TEXT_CHUNK = 1 << 20;

/** Streams an HTML string through htmlparser2's tokenizer into `sink`, without building a DOM. */
export function feedHtml(sink: HtmlSink, html: string, budget: Budget): void {
  let skip = 0;
  let text = '';
  const flush = (): void => {
    if (text === '') return;
    const t = text;
    text = '';
    sink.text(t);
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (skip > 0) {
          skip++;
          return;
        }
        flush();
        if (!sink.open(name, attribs)) skip = 1;
      },
      ontext(data) {
        if (skip > 0) return;
        text += data;
        if (text.length > TEXT_CHUNK) flush();
      },
      onclosetag(name) {
        if (skip > 0) {
          skip--;
          return;
        }
        flush();
        sink.close(name);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  if (html.length <= WRITE_CHUNK) parser.write(html);
  else {
    for (let i = 0; i < html.length; i += WRITE_CHUNK) {
      parser.write(html.slice(i, i + WRITE_CHUNK));
      budget.check();
    }
  }
  parser.end();
  flush();
}

/** Walks domhandler nodes into `sink` in document order, iteratively (any depth is safe). */
export function feedNodes(sink: HtmlSink, roots: readonly AnyNode[]): void {
  const parents: (readonly AnyNode[])[] = [];
  const indices: number[] = [];
  const names: (string | null)[] = [];
  let children: readonly AnyNode[] = roots;
  let i = 0;
  for (;;) {
    if (i < children.length) {
      const node = children[i++]!;
      if (isText(node)) {
        sink.text(node.data);
        continue;
      }
      let name: string | null;
      let kids: readonly AnyNode[];
      if (isTag(node)) {
        if (!sink.open(node.name, node.attribs)) continue;
        name = node.name;
        kids = node.children;
      } else if (isDocument(node) || isCDATA(node)) {
        name = null;
        kids = node.children;
      } else continue;
      if (kids.length === 0) {
        if (name !== null) sink.close(name);
        continue;
      }
      parents.push(children);
      indices.push(i);
      names.push(name);
      children = kids;
      i = 0;
    } else {
      if (parents.length === 0) return;
      const name = names.pop()!;
      if (name !== null) sink.close(name);
      children = parents.pop()!;
      i = indices.pop()!;
    }
  }
}
