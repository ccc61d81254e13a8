import { Comment, Document, Element, ProcessingInstruction, Text, type ChildNode, type ParentNode } from 'domhandler';

import { streamHtml, type HtmlEventSink } from './html-events.js';
import { StreamedParts } from './streamed-segments.js';

/**
 * How deep elements nest: Chromium's and WebKit's parsers stop nesting at 512 levels too. The element at depth 512
 * takes everything opened inside it, however deep, as its own children in document order (elements with their
 * attributes, and text), so the tree is never more than 513 levels deep and every later step stays linear.
 */
export const MAX_DEPTH = 512;

/** Builds a domhandler tree from the parser events, as domhandler's DomHandler does, with the depth cap. */
class TreeBuilder implements HtmlEventSink {
  readonly root = new Document([]);
  /** React's streamed parts and their placeholders, met while building. */
  readonly streamed = new StreamedParts();
  /** Open elements, innermost last (more than `MAX_DEPTH` when the page nests deeper than the tree does). */
  readonly #open: Element[] = [];
  /** The text node that text arriving now extends (adjacent text is one node). */
  #lastText: Text | null = null;

  #append(node: ChildNode): void {
    const open = this.#open;
    const parent: ParentNode = open.length <= MAX_DEPTH ? (open[open.length - 1] ?? this.root) : open[MAX_DEPTH - 1]!;
    const children = parent.children;
    const prev = children[children.length - 1];
    if (prev) {
      node.prev = prev;
      prev.next = node;
    }
    children.push(node);
    node.parent = parent;
    this.#lastText = null;
  }

  open(name: string, attribs: Record<string, string>): boolean {
    const element = new Element(name, attribs);
    this.#append(element);
    this.streamed.observe(element);
    this.#open.push(element);
    return true;
  }

  close(): void {
    this.#open.pop();
    this.#lastText = null;
  }

  text(data: string): void {
    if (this.#lastText) {
      this.#lastText.data += data;
      return;
    }
    const text = new Text(data);
    this.#append(text);
    this.#lastText = text;
  }

  comment(data: string): void {
    this.#append(new Comment(data));
  }

  processingInstruction(name: string, data: string): void {
    this.#append(new ProcessingInstruction(name, data));
  }
}

/**
 * Parses HTML into a domhandler tree: htmlparser2's `parseDocument` (entities decoded, names lower-cased, no
 * tree-construction rewrites), in time linear in the input whatever its nesting, with nesting capped at
 * {@link MAX_DEPTH}. React's streamed parts are moved into their placeholders, as the page's script does in a browser
 * (`streamed-segments.ts`), so every reader of the tree sees the page as it shows.
 */
export function parseHtml(html: string): Document {
  const builder = new TreeBuilder();
  streamHtml(html, builder);
  builder.streamed.place();
  return builder.root;
}
