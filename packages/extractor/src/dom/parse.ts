import {
  Comment,
  Document,
  ProcessingInstruction,
  type ChildNode,
  type Element,
  type ParentNode,
  type Text,
} from 'domhandler';

import { streamHtml, type HtmlEventSink } from './html-events.js';
import { newElement, newText } from './nodes.js';
import { DeclarativeShadowRoots } from './declarative-shadow.js';
import { MathScripts } from './math-scripts.js';
import { StreamedParts } from './streamed-segments.js';

/**
 * How deep elements nest: Chromium's and WebKit's parsers stop nesting at 512 levels too. The element at depth 512
 * takes everything opened inside it, however deep, as its own children in document order (elements with their
 * attributes, and text), so the tree is never more than 513 levels deep and every later step stays linear.
 */
export const MAX_DEPTH = 512;

/** The `children` of an element while it is open: its children are gathered in the builder's lists until it closes. */
const OPEN_CHILDREN: ChildNode[] = [];

/**
 * Builds a domhandler tree from the parser events, as domhandler's DomHandler does, with the depth cap. An open
 * element's children are gathered in a list of the builder's, one a depth and reused, and copied into an array of
 * their exact length when the element closes: an array grown by `push` keeps room for 16 more, and the tree lives
 * (and is promoted by the collector) for the whole extraction.
 */
class TreeBuilder implements HtmlEventSink {
  readonly root = new Document([]);
  /** React's streamed parts and their placeholders, met while building. */
  readonly streamed = new StreamedParts();
  /** Server-rendered shadow roots (`<template shadowrootmode>`) and their slots, met while building. */
  readonly shadowRoots = new DeclarativeShadowRoots();
  /** MathJax 2's formula scripts, met while building. */
  readonly mathScripts = new MathScripts();
  /** Open elements, innermost last (more than `MAX_DEPTH` when the page nests deeper than the tree does). */
  readonly #open: Element[] = [];
  /**
   * The children gathered so far of the root (index 0) and of each open element up to the cap (at its depth + 1):
   * the first `#counts[depth]` entries of each list (the rest are left over from elements closed before).
   */
  readonly #gathered: ChildNode[][] = [[]];
  readonly #counts: number[] = [0];
  /** The text node that text arriving now extends (adjacent text is one node). */
  #lastText: Text | null = null;

  #append(node: ChildNode): void {
    const open = this.#open;
    const depth = open.length <= MAX_DEPTH ? open.length : MAX_DEPTH;
    const parent: ParentNode = depth === 0 ? this.root : open[depth - 1]!;
    const children = this.#gathered[depth]!;
    const count = this.#counts[depth]!;
    if (count > 0) {
      const prev = children[count - 1]!;
      node.prev = prev;
      prev.next = node;
    }
    children[count] = node;
    this.#counts[depth] = count + 1;
    node.parent = parent;
    this.#lastText = null;
  }

  /** Gives the element or root whose gathered children are at `depth` an array of them, and empties the list. */
  #settle(parent: ParentNode, depth: number): void {
    const count = this.#counts[depth]!;
    parent.children = count === 0 ? [] : this.#gathered[depth]!.slice(0, count);
    this.#counts[depth] = 0;
  }

  open(name: string, attribs: Record<string, string>): boolean {
    const element = newElement(name, attribs, OPEN_CHILDREN);
    this.#append(element);
    this.streamed.observe(element);
    this.shadowRoots.observe(element);
    this.mathScripts.observe(element);
    this.#open.push(element);
    const depth = this.#open.length;
    if (depth <= MAX_DEPTH) {
      if (this.#gathered.length === depth) this.#gathered.push([]);
      this.#counts[depth] = 0;
    }
    return true;
  }

  close(): void {
    const depth = this.#open.length;
    const element = this.#open.pop()!;
    // past the cap an element's children are its ancestor's at the cap: it has none of its own
    if (depth <= MAX_DEPTH) this.#settle(element, depth);
    else element.children = [];
    this.#lastText = null;
  }

  /** Settles the root's children once every element has closed. */
  end(): void {
    this.#settle(this.root, 0);
  }

  text(data: string): void {
    if (this.#lastText) {
      this.#lastText.data += data;
      return;
    }
    const text = newText(data);
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
 * (`streamed-segments.ts`), and server-rendered shadow roots are rendered into their hosts, as the browser does
 * at parse time (`declarative-shadow.ts`), so every reader of the tree sees the page as it shows. MathJax 2's formula
 * scripts become the MathML of their TeX (`math-scripts.ts`).
 */
export function parseHtml(html: string): Document {
  const builder = new TreeBuilder();
  streamHtml(html, builder);
  builder.end();
  builder.streamed.place();
  builder.shadowRoots.place();
  builder.mathScripts.place();
  return builder.root;
}
