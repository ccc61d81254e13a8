// One post-order pass that measures every element: text, link text, and the content value of its blocks.
import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { PASS_SLOT } from '../dom/nodes.js';
import { detachAll, elements } from '../dom/walk.js';

import { HEADING_TAGS, INLINE_TAGS } from './tags.js';

/** What one pass over the tree learns about an element (all lengths in visible characters, whitespace excluded). */
export interface Measure {
  /** Visible characters in the subtree. */
  text: number;
  /** Of those, characters inside links. */
  link: number;
  /** Sum of the content values of the text blocks in the subtree (negative for link lists and menus). */
  value: number;
  /** Sum of the positive block values only: how much prose the subtree holds, whatever else it holds. */
  prose: number;
  /** Number of text blocks in the subtree. */
  blocks: number;
  /** Characters of the element's own inline run (text not inside a nested block). */
  own: number;
  /** Of those, characters inside links. */
  ownLink: number;
  /** Sentence punctuation marks in the element's own inline run. */
  ownPunct: number;
}

/** A measure as `Measures` keeps it: with its element, so that an index another pass left in the slot is not read. */
interface StoredMeasure extends Measure {
  el: Element | null;
}

type Slotted = Record<typeof PASS_SLOT, number | undefined>;

/**
 * The measures of one `measureTree` pass, by element: `get`, `has`, `set` and `delete` as a `Map<Element, Measure>`'s,
 * found through a slot of the element (`PASS_SLOT`) that holds the measure's index here, where the rules look them up
 * several times an element. A map's lookups were most of main content's time on a page of 700,000 elements (its table
 * far larger than the processor's caches); the slot holds a number, so the measures go with this object, not with the
 * tree. Each element has one slot: a later pass over the same elements takes it, and this one may then miss an
 * element's measure (never read another's: each measure holds its element).
 */
export class Measures {
  readonly #all: StoredMeasure[] = [];

  get(el: Element): Measure | undefined {
    const i = (el as unknown as Slotted)[PASS_SLOT];
    if (i === undefined) return undefined;
    const m = this.#all[i];
    return m !== undefined && m.el === el ? m : undefined;
  }

  has(el: Element): boolean {
    return this.get(el) !== undefined;
  }

  set(el: Element, m: Measure): this {
    (m as StoredMeasure).el = el;
    (el as unknown as Slotted)[PASS_SLOT] = this.#all.push(m as StoredMeasure) - 1;
    return this;
  }

  delete(el: Element): boolean {
    const m = this.get(el);
    if (!m) return false;
    (m as StoredMeasure).el = null;
    return true;
  }
}

interface Frame {
  el: Element | null;
  children: ParentNode['children'];
  i: number;
  m: StoredMeasure;
  inLink: boolean;
  block: boolean;
}

const newMeasure = (): StoredMeasure => ({
  el: null,
  text: 0,
  link: 0,
  value: 0,
  prose: 0,
  blocks: 0,
  own: 0,
  ownLink: 0,
  ownPunct: 0,
});

/** Sentence punctuation marks of the text `countText` counted last (a second result, without a tuple a text node). */
let lastPunct = 0;

/** Counts the visible characters of a text node, and its sentence punctuation into `lastPunct`. */
function countText(data: string): number {
  let chars = 0;
  let punct = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c <= 32 || c === 160) continue;
    chars++;
    // . , ; ! ? and their CJK forms
    if (c === 46 || c === 44 || c === 59 || c === 33 || c === 63 || c === 0x3002 || c === 0xff0c || c === 0x3001) {
      punct++;
    }
  }
  lastPunct = punct;
  return chars;
}

/** The content value of one text block: positive for prose, negative for link lists and tiny fragments. */
export function blockValue(own: number, ownLink: number, ownPunct: number, tag: string): number {
  if (own === 0) return 0;
  if (HEADING_TAGS.has(tag)) return 0;
  const plain = own - ownLink;
  const weight = ownPunct > 0 || plain >= 80 ? 1 : 0.5;
  return plain * weight - 0.5 * ownLink - 8;
}

/** Adds a text node's visible characters to `m`, the measure of the element holding it. */
function addText(m: Measure, data: string, inLink: boolean): void {
  const chars = countText(data);
  if (chars === 0) return;
  m.text += chars;
  m.own += chars;
  m.ownPunct += lastPunct;
  if (inLink) {
    m.link += chars;
    m.ownLink += chars;
  }
}

/** Adds a child element's measure to its parent's; an inline child's own run is part of the parent's own run. */
function addChild(parent: Measure, m: Measure, inline: boolean): void {
  parent.text += m.text;
  parent.link += m.link;
  parent.value += m.value;
  parent.prose += m.prose;
  parent.blocks += m.blocks;
  if (inline) {
    parent.own += m.own;
    parent.ownLink += m.ownLink;
    parent.ownPunct += m.ownPunct;
  }
}

/** Counts the element's own inline run as a text block, once its children are measured (blocks only). */
function closeBlock(m: Measure, tag: string): void {
  if (m.own === 0) return;
  const v = blockValue(m.own, m.ownLink, m.ownPunct, tag);
  m.value += v;
  if (v > 0) m.prose += v;
  m.blocks++;
}

/**
 * Measures every element under `root`, and `root` itself when it is an element, in one iterative post-order pass.
 * The frames of the walk are reused level by level: one a level of depth, not one an element.
 */
export function measureTree(root: ParentNode): Measures {
  const out = new Measures();
  const frames: Frame[] = [
    { el: isTag(root) ? root : null, children: root.children, i: 0, m: newMeasure(), inLink: false, block: true },
  ];
  let depth = 0;
  while (depth >= 0) {
    const f = frames[depth]!;
    if (f.i < f.children.length) {
      const child = f.children[f.i++]!;
      if (isText(child)) addText(f.m, child.data, f.inLink);
      else if (isTag(child)) {
        const el = child;
        const inLink = f.inLink || (el.name === 'a' && el.attribs['href'] !== undefined);
        const block = !INLINE_TAGS.has(el.name);
        const next = frames[++depth];
        if (next) {
          next.el = el;
          next.children = el.children;
          next.i = 0;
          next.m = newMeasure();
          next.inLink = inLink;
          next.block = block;
        } else frames.push({ el, children: el.children, i: 0, m: newMeasure(), inLink, block });
      }
      continue;
    }
    depth--;
    const { el, m } = f;
    if (f.block) closeBlock(m, el?.name ?? '');
    if (el) out.set(el, m);
    if (depth < 0) break;
    addChild(frames[depth]!.m, m, !f.block);
  }
  return out;
}

/**
 * Detaches `nodes` (elements under `root`) and brings `measures`, `measureTree(root)`'s, up to date in place: the
 * entries of the detached subtrees go, and the elements above them are measured again from their children, deepest
 * first. `measures` then holds what `measureTree(root)` of the tree after would, at the cost of the removed nodes'
 * ancestors instead of a walk of the whole tree (the sums are exact in any order: block values are multiples of 0.5).
 */
export function detachMeasured(root: ParentNode, nodes: readonly AnyNode[], measures: Measures): void {
  // the elements above a removed node, by their depth below `root` (`root` itself at 0)
  const above = new Map<Element, number>();
  const chain: Element[] = [];
  for (const node of nodes) {
    chain.length = 0;
    let p = node.parent;
    for (; p && p !== root && !above.has(p as Element); p = p.parent) if (isTag(p)) chain.push(p);
    let depth = p === root ? 0 : p ? above.get(p as Element)! : -1;
    if (depth < 0) continue;
    if (p === root && isTag(root) && !above.has(root)) above.set(root, 0);
    for (let i = chain.length - 1; i >= 0; i--) above.set(chain[i]!, ++depth);
  }
  detachAll(nodes);
  for (const node of nodes) {
    if (!isTag(node)) continue;
    measures.delete(node);
    for (const el of elements(node)) measures.delete(el);
  }
  const order = [...above].filter(([el]) => measures.has(el)).sort((a, b) => b[1] - a[1]);
  for (const [el] of order) remeasure(el, root, measures);
}

/** Measures `el` again from its text and its child elements' measures, as `measureTree`'s post-order step does. */
function remeasure(el: Element, root: ParentNode, measures: Measures): void {
  // the text of `root` is never link text, as in `measureTree`: its own name does not count
  let inLink = false;
  for (let p: ParentNode | null = el; p && p !== root; p = p.parent) {
    if (isTag(p) && p.name === 'a' && p.attribs['href'] !== undefined) inLink = true;
  }
  const m = measures.get(el)!;
  m.text = m.link = m.value = m.prose = m.blocks = m.own = m.ownLink = m.ownPunct = 0;
  for (const child of el.children) {
    if (isText(child)) addText(m, child.data, inLink);
    else if (isTag(child)) addChild(m, measures.get(child)!, INLINE_TAGS.has(child.name));
  }
  // `root` counts as a block whatever its name, as in `measureTree`
  if (el === root || !INLINE_TAGS.has(el.name)) closeBlock(m, el.name);
}

/**
 * Visits `root` and the elements under it in document order, with the characters of `root` before each. `visit`
 * returns true to pass over an element's subtree (its text counts as read), false to go into it. Elements without a
 * measure are passed over.
 */
export function walkInOrder(
  root: Element,
  measures: Measures,
  visit: (el: Element, m: Measure, before: number) => boolean,
): void {
  let before = 0;
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    const m = measures.get(el);
    if (!m) continue;
    if (visit(el, m, before)) {
      before += m.text;
      continue;
    }
    before += m.own;
    const c = el.children;
    for (let i = c.length - 1; i >= 0; i--) {
      const n = c[i]!;
      if (isTag(n)) stack.push(n);
    }
  }
}
