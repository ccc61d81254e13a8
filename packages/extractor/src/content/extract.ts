// Main-content extraction: prune, measure, pick the best container, clean inside it.
import { Document, Element, type AnyNode, type ParentNode } from 'domhandler';

import { detachAll } from '../dom/walk.js';
import { cleanContainer } from './clean.js';
import { isHidden, looksLikeChrome, looksLikeComments, looksLikeContent } from './hints.js';
import { measureTree, type Measure } from './measure.js';
import { DROP_TAGS } from './tags.js';

export interface MainContentOptions {
  /**
   * The page URL (after redirects). Reserved for URL-based hints; the extractor works without it.
   * @default undefined
   */
  url?: string;
}

function findBody(document: Document): ParentNode {
  const stack: AnyNode[] = [...document.children];
  while (stack.length) {
    const node = stack.shift()!;
    if (node.type !== 'tag') continue;
    const el = node as Element;
    if (el.name === 'body') return el;
    if (el.name === 'html') stack.unshift(...el.children);
  }
  return document;
}

/** Removes comments, invisible elements and elements that never hold readable text. */
function prune(root: ParentNode): void {
  const doomed: AnyNode[] = [];
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'comment' || node.type === 'directive' || node.type === 'cdata') {
      doomed.push(node);
      continue;
    }
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    const el = node as Element;
    if (el.name === 'noscript') {
      // Some sites (forums especially) serve their whole readable content in <noscript>; keep that, drop pixels.
      if (textLength(el) >= 200) el.name = 'div';
      else {
        doomed.push(el);
        continue;
      }
    }
    if (DROP_TAGS.has(el.name) || isHidden(el)) {
      doomed.push(el);
      continue;
    }
    for (const c of el.children) stack.push(c);
  }
  detachAll(doomed);
}

function textLength(root: ParentNode): number {
  let n = 0;
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'text') n += (node as unknown as { data: string }).data.trim().length;
    else if (node.type === 'tag') for (const c of (node as Element).children) stack.push(c);
  }
  return n;
}

const COMMENTS_MIN_REST = Number(process.env['CK_CMR'] ?? 1000);

/** Removes chrome (navigation, headers, footers, banners, share bars) unless it holds much of the page's text. */
function removeChrome(root: ParentNode, measures: Map<Element, Measure>, total: number, totalValue: number): void {
  const doomed: AnyNode[] = [];
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type !== 'tag') continue;
    const el = node as Element;
    const m = measures.get(el);
    if (!m || m.text === 0) {
      continue;
    }
    if (looksLikeChrome(el) && !looksLikeContent(el) && m.text < 0.4 * total) {
      if ((globalThis as Record<string, unknown>)['__CKDEBUG'] && m.text > 0.1 * total) console.log('CHROME', m.text, total, el.name, el.attribs['class'], el.attribs['id'], el.attribs['role']);
      doomed.push(el);
      continue;
    }
    // comments go when the page has a substantial text of its own besides them
    if (looksLikeComments(el) && totalValue - m.value >= COMMENTS_MIN_REST) {
      doomed.push(el);
      continue;
    }
    for (const c of el.children) stack.push(c);
  }
  detachAll(doomed);
}

const ALPHA = Number(process.env['CK_ALPHA'] ?? 0.8);
const LINK_K = Number(process.env['CK_K'] ?? 1);
const BETA = Number(process.env['CK_BETA'] ?? 0.3);
/** Walks down from the body while one child holds nearly all of the plain (non-link) text. */
function descend(root: ParentNode, measures: Map<Element, Measure>): Element | null {
  let node: ParentNode = root;
  let best: Element | null = null;
  for (;;) {
    const m = node === root ? null : measures.get(node as Element);
    let plain = m ? m.text - LINK_K * m.link : 0;
    let top: Element | null = null;
    let topPlain = -1;
    let sum = 0;
    let allText = m ? m.text : 0;
    let sumText = 0;
    for (const c of node.children) {
      if (c.type !== 'tag') continue;
      const cm = measures.get(c as Element);
      if (!cm) continue;
      const p = cm.text - LINK_K * cm.link;
      sum += p;
      sumText += cm.text;
      if (p > topPlain) {
        topPlain = p;
        top = c as Element;
      }
    }
    if (!m) {
      plain = sum;
      allText = sumText;
    }
    if (!top || plain <= 0 || topPlain < ALPHA * plain || (measures.get(top)?.text ?? 0) < BETA * allText) return best ?? (root.type === 'tag' ? (root as Element) : top);
    best = top;
    node = top;
  }
}

/** The element with the highest content value. */
function bestContainer(root: ParentNode, measures: Map<Element, Measure>): Element | null {
  let best: Element | null = null;
  let bestValue = 0;
  for (const [el, m] of measures) {
    if (m.value > bestValue || (m.value === bestValue && best && isAncestor(el, best))) {
      best = el;
      bestValue = m.value;
    }
  }
  void root;
  return best;
}

function isAncestor(a: Element, b: AnyNode): boolean {
  for (let p = b.parent; p; p = p.parent) if (p === a) return true;
  return false;
}

/** Returns a Document holding only the page's main content. May mutate `document`. */
export function extractMainContent(document: Document, _options: MainContentOptions = {}): Document {
  const body = findBody(document);
  prune(body);
  let measures = measureTree(body);
  let total = 0;
  let totalValue = 0;
  for (const c of body.children) {
    if (c.type !== 'tag') continue;
    total += measures.get(c as Element)?.text ?? 0;
    totalValue += measures.get(c as Element)?.value ?? 0;
  }
  if (total === 0) return wrap(body.children);
  removeChrome(body, measures, total, totalValue);
  measures = measureTree(body);
  const best = (globalThis as Record<string, unknown>)['__CKMODE'] === 'argmax' ? bestContainer(body, measures) : descend(body, measures);
  if ((globalThis as Record<string, unknown>)['__CKDEBUG']) debugTop(measures, best);
  if (!best) return wrap(body.children);
  if (!process.env['CK_NOCLEAN']) cleanContainer(best, measures);
  return wrap([best]);
}

function wrap(nodes: AnyNode[]): Document {
  const body = new Element('body', {}, []);
  const kept = [...nodes];
  for (const n of kept) {
    const parent = n.parent;
    if (parent) {
      const i = parent.children.indexOf(n);
      if (i >= 0) parent.children.splice(i, 1);
    }
  }
  body.children = kept;
  for (let i = 0; i < kept.length; i++) {
    const n = kept[i]!;
    n.parent = body;
    n.prev = kept[i - 1] ?? null;
    n.next = kept[i + 1] ?? null;
  }
  const doc = new Document([body]);
  body.parent = doc;
  return doc;
}

function describe(el: Element): string {
  const parts: string[] = [];
  for (let e: Element | null = el; e && e.type === 'tag'; e = e.parent as Element | null) {
    const c = (e.attribs['class'] ?? '').split(/\s+/).slice(0, 2).join('.');
    parts.unshift(e.name + (e.attribs['id'] ? '#' + e.attribs['id'] : '') + (c ? '.' + c : ''));
  }
  return parts.slice(-5).join(' > ');
}
function debugTop(measures: Map<Element, Measure>, best: Element | null): void {
  const all = [...measures].sort((a, b) => b[1].value - a[1].value).slice(0, 12);
  // eslint-disable-next-line no-console
  for (const [el, m] of all) console.log(el === best ? '*' : ' ', Math.round(m.value), m.text, m.link, m.blocks, describe(el));
}
