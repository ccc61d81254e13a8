// React's streaming server rendering sends each part of a page that was still loading later in the document, in a
// hidden `<div id="S:1">`, with an inline script that moves it into its placeholder: `<template id="B:1">` for a
// Suspense boundary (whose fallback, "Loading…", it replaces) or `<template id="P:1">` for a segment. A browser shows
// every part in place at once; this does the same without running the script.
import { isComment, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

/** A streamed part: `S:<id>`, after an optional identifier prefix (React's `identifierPrefix`). */
const SEGMENT = /^(.*)S:([0-9a-z]+)$/;

/** Its place: `B:<id>` (a boundary, followed by its fallback) or `P:<id>` (a segment). */
const PLACEHOLDER = /^(.*)([BP]):([0-9a-z]+)$/;

interface Place {
  template: Element;
  boundary: boolean;
}

/**
 * Collects the streamed parts (`<div hidden id="S:1">`) and their placeholders (`<template id="B:1">` or
 * `<template id="P:1">` with the same prefix and id) as the parser creates elements, then moves each part's content to
 * its placeholder, as React's inline script does in the browser. A boundary's fallback goes with the placeholder when
 * React's comments mark it (`<!--$?-->` before the template, `<!--/$-->` after the fallback). Parts without a
 * placeholder, and parts holding their own placeholder, stay where they are.
 *
 * Linear in the page: the moves relink siblings through their `prev`/`next` pointers only, and each changed parent's
 * `children` is rebuilt once at the end (a page of thousands of parts must not splice an array per part).
 */
export class StreamedParts {
  readonly #segments = new Map<string, Element>();
  readonly #places = new Map<string, Place>();

  /** Notes `el` when it is a streamed part or a placeholder; called for every element, in document order. */
  observe(el: Element): void {
    const id = el.attribs['id'];
    if (!id) return;
    if (el.name === 'template') {
      const m = PLACEHOLDER.exec(id);
      if (m) this.#places.set(`${m[1]}:${m[3]}`, { template: el, boundary: m[2] === 'B' });
    } else if ('hidden' in el.attribs) {
      const m = SEGMENT.exec(id);
      if (m) this.#segments.set(`${m[1]}:${m[2]}`, el);
    }
  }

  /** Moves every observed part into its placeholder, once the whole tree is built. Returns how many were placed. */
  place(): number {
    if (this.#segments.size === 0 || this.#places.size === 0) return 0;
    return new Relinker().place(this.#segments, this.#places);
  }
}

/** Sibling lists edited through their pointers; `children` arrays and `parent` links are fixed in `finish`. */
class Relinker {
  /** First child of each parent whose siblings changed. */
  readonly #first = new Map<ParentNode, AnyNode | null>();
  /** Parts whose content moved out: a node whose `parent` is one of them now lives in the mapped parent. */
  readonly #moved = new Map<ParentNode, ParentNode>();

  place(segments: Map<string, Element>, places: Map<string, Place>): number {
    let placed = 0;
    for (const [key, segment] of segments) {
      const place = places.get(key);
      if (!place) continue;
      const parent = this.#parentOf(place.template);
      if (!parent || this.#isWithin(parent, segment)) continue;
      const holder = this.#parentOf(segment);
      const end = place.boundary ? this.#fallbackEnd(place.template) : place.template;
      // the part's content, as a chain of siblings
      const first = this.#firstOf(segment);
      let last = first;
      while (last?.next) last = last.next;
      if (holder) this.#replace(holder, segment, segment, null, null);
      this.#replace(parent, place.template, end, first, last);
      this.#moved.set(segment, parent);
      this.#first.set(segment, null);
      placed++;
    }
    this.#finish();
    return placed;
  }

  #firstOf(parent: ParentNode): AnyNode | null {
    return this.#first.has(parent) ? this.#first.get(parent)! : (parent.children[0] ?? null);
  }

  /** Where `node` lives now, following parts whose content moved (with path compression). */
  #parentOf(node: AnyNode): ParentNode | null {
    let parent = node.parent;
    const path: ParentNode[] = [];
    while (parent && this.#moved.has(parent)) {
      path.push(parent);
      parent = this.#moved.get(parent)!;
    }
    for (const p of path) this.#moved.set(p, parent!);
    return parent;
  }

  /** Whether `node` is `ancestor` or lies inside it now. */
  #isWithin(node: ParentNode, ancestor: ParentNode): boolean {
    for (let p: ParentNode | null = node; p; p = this.#parentOf(p)) if (p === ancestor) return true;
    return false;
  }

  /**
   * The last node of a pending boundary's fallback: the node before its closing `<!--/$-->` when `<!--$?-->` opens it
   * right before the placeholder (nested boundaries counted); otherwise the placeholder itself, the fallback staying (a
   * page saved without comments still reads "Loading…" there, as the page's shell did).
   */
  #fallbackEnd(template: Element): AnyNode {
    let before = template.prev;
    while (before && isText(before) && before.data.trim() === '') before = before.prev;
    if (!before || !isComment(before) || before.data !== '$?') return template;
    let depth = 0;
    for (let node = template.next; node; node = node.next) {
      if (!isComment(node)) continue;
      if (node.data === '/$') {
        if (depth === 0) return node.prev!;
        depth--;
      } else if (node.data === '$' || node.data === '$?' || node.data === '$!') depth++;
    }
    return template;
  }

  /** Replaces the siblings `from`…`to` under `parent` by the chain `first`…`last` (none when `first` is null). */
  #replace(parent: ParentNode, from: AnyNode, to: AnyNode, first: AnyNode | null, last: AnyNode | null): void {
    const before = from.prev;
    const after = to.next;
    for (let node: AnyNode | null = from; node;) {
      const next: AnyNode | null = node === to ? null : node.next;
      node.parent = node.prev = node.next = null;
      node = next;
    }
    const head = first ?? after;
    const tail = last ?? before;
    if (before) before.next = head;
    else this.#first.set(parent, head);
    if (head) head.prev = before;
    if (after) after.prev = tail;
    if (tail) tail.next = after;
    // the parent's first child is unchanged: record it, so that `finish` rebuilds this parent too
    if (!this.#first.has(parent)) this.#first.set(parent, parent.children[0] ?? null);
  }

  /** Rebuilds `children` and `parent` of every parent whose siblings changed. */
  #finish(): void {
    for (const [parent, first] of this.#first) {
      if (this.#moved.has(parent)) {
        parent.children = [];
        continue;
      }
      const children: AnyNode[] = [];
      for (let node = first; node; node = node.next) {
        node.parent = parent;
        children.push(node);
      }
      parent.children = children;
    }
  }
}
