// The byline's one line: its parts' text cut into pieces, tidied and joined ("By Jane Doe · March 3, 2025").
import { Element, Text, isTag, isText, type AnyNode } from 'domhandler';

import { relink, textOf } from '../dom/walk.js';
import { hasImage, INLINE_TAGS } from './tags.js';

/**
 * A sentence of the text (8 words or more, ending like one) is never a piece of a byline: a disclosure, a standfirst.
 */
const SENTENCE = /^(?:\S+\s+){7,}\S*[.!?]["”’)]*$/;

/** A piece of the line made only of separators (or nothing): dropped. */
const SEPARATOR_ONLY = /^[\s|·•/\\\-–—:,;]*$/;

/** A separator standing alone inside a text ("By Jane Doe | March 3"): the line's pieces are cut there. */
const INNER_SEPARATOR = /\s[|·•]\s/;

/**
 * Separators at the start or the end of a piece, left over from the page's own joining ("Jane Doe,", "— 3 min read").
 */
const LEADING_SEPARATORS = /^[\s|·•\-–—,;]+/;
const TRAILING_SEPARATORS = /[\s|·•\-–—,;]+$/;

/** A piece that labels the next one ("By", "Posted on", "Fact-checked by", "Published:"): joined to it by a space. */
const LABEL = /^(?:.*\bby|posted(?: on)?|published(?: on)?|(?:last )?updated(?: on)?|date|.*:)$/i;

/** A piece that starts with a label of its own ("Updated on …", "Edited by …"): a label before it labels nothing. */
const LABELLED = /^(?:(?:last )?updated|published|posted|edited|reviewed|written|fact-?checked|by)\b/i;

/** What the line joins its pieces with. */
const JOIN = ' · ';

/**
 * The line: the text of `run` cut into pieces at its blocks, line breaks and lone separators; separator-only pieces
 * and copies of an earlier piece left out, the others joined by " · " (a label such as "By" by a space). Links and
 * `<time>` stay, with their text only. Null when a piece is a sentence of the text.
 */
export function lineOf(run: AnyNode[]): { line: Element; lines: number } | null {
  const pieces: AnyNode[][] = [[]];
  // the lines the run would make without this: its blocks and line breaks, and its images
  let lines = 0;
  let open = false;
  const cut = (): void => {
    if (pieces.at(-1)!.length) pieces.push([]);
  };
  const breakLine = (): void => {
    cut();
    open = false;
  };
  const stack: (AnyNode | 'cut')[] = [...run].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node === 'cut') {
      breakLine();
      continue;
    }
    if (isText(node)) {
      if (/\S/.test(node.data) && !open) {
        lines++;
        open = true;
      }
      node.data.split(INNER_SEPARATOR).forEach((s, k) => {
        if (k > 0) cut();
        pieces.at(-1)!.push(new Text(s));
      });
      continue;
    }
    if (!isTag(node)) continue;
    if (node.name === 'img') {
      lines++;
      continue;
    }
    if (node.name === 'br') {
      breakLine();
      continue;
    }
    if ((node.name === 'a' || node.name === 'time') && /\S/.test(textOf(node))) {
      if (!open) {
        lines++;
        open = true;
      }
      if (hasImage(node)) lines++;
      const keep: Record<string, string> = {};
      for (const name of ['href', 'datetime', 'title']) {
        const value = node.attribs[name];
        if (value !== undefined) keep[name] = value;
      }
      pieces.at(-1)!.push(new Element(node.name, keep, [new Text(textOf(node))]));
      continue;
    }
    const block = !INLINE_TAGS.has(node.name);
    if (block) stack.push('cut');
    for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]!);
    if (block) stack.push('cut');
  }
  const kept: { nodes: AnyNode[]; text: string }[] = [];
  const seen = new Set<string>();
  for (const piece of pieces) {
    const nodes = tidy(piece);
    const text = nodes.map((n) => (isTag(n) ? textOf(n) : (n as Text).data)).join('');
    if (SENTENCE.test(text)) return null;
    if (SEPARATOR_ONLY.test(text) || seen.has(text)) continue;
    seen.add(text);
    kept.push({ nodes, text });
  }
  if (kept.length === 0) return null;
  const children: AnyNode[] = [];
  kept.forEach((piece, k) => {
    const label = k > 0 && LABEL.test(kept[k - 1]!.text) && !LABELLED.test(piece.text);
    if (k > 0) children.push(new Text(label ? ' ' : JOIN));
    children.push(...piece.nodes);
  });
  const line = new Element('p', {}, []);
  relink(line, children);
  return { line, lines };
}

/** A piece's text with its whitespace made single spaces and the separators at its ends taken off. */
function tidy(piece: AnyNode[]): AnyNode[] {
  const nodes = piece.filter((n) => !isText(n) || n.data !== '');
  for (const n of nodes) if (isText(n)) n.data = n.data.replace(/\s+/g, ' ');
  const head = nodes[0];
  if (head && isText(head)) head.data = head.data.replace(LEADING_SEPARATORS, '');
  const tail = nodes.at(-1);
  if (tail && isText(tail)) tail.data = tail.data.replace(TRAILING_SEPARATORS, '');
  return nodes.filter((n) => !isText(n) || n.data !== '');
}
