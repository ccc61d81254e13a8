import { isCDATA, isDocument, isTag, isText, type AnyNode } from 'domhandler';

import { streamHtml } from '../dom/html-events.js';
import type { Budget } from './budget.js';
import type { RawEvent } from './raw-html.js';

/** What the drivers feed: start tags (false skips the subtree, and its end tag), text, end tags. */
export interface HtmlSink {
  open(name: string, attribs: Record<string, string>): boolean;
  text(data: string): void;
  close(name: string): void;
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

/**
 * Streams an HTML string into `sink` without building a DOM, in time linear in the input whatever its nesting, with
 * a budget check between 64 KB slices.
 */
export function feedHtml(sink: HtmlSink, html: string, budget: Budget): void {
  streamHtml(html, sink, () => budget.check());
}

/**
 * Feeds a recorded subtree (`RawCapture`'s events) into `sink` again; a start tag it refuses skips to its end tag's
 * index in `end`. `at(i)` is told each start tag's index before the sink sees it.
 */
export function feedEvents(
  sink: HtmlSink,
  events: readonly RawEvent[],
  end: ArrayLike<number>,
  at?: (index: number) => void,
): void {
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (typeof event === 'string') sink.text(event);
    else if ('close' in event) sink.close(event.close);
    else {
      at?.(i);
      // refused: its subtree and its end tag too
      if (!sink.open(event.open, event.attribs)) i = end[i]!;
    }
  }
}
