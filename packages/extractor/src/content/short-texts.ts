// The text of short blocks, for the cleaning's per-element tests: read once for a whole chain of wrappers.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

import { SubtreeMemo } from '../dom/subtree-memo.js';
import { textOf } from '../dom/walk.js';
import type { Measures } from './measure.js';

/** Levels below an element that a direct read goes down before it leaves the element to the memo. */
const DIRECT_DEPTH = 16;

/**
 * `textOf` for the cleaning's per-element tests, which read the text of every short block. Most blocks are shallow
 * and read directly. In a chain of nested wrappers around the same few words (a toggle inside a toggle, thousands
 * deep) reading each level's subtree again would cost the depth times the size, so an element deeper than
 * `DIRECT_DEPTH` levels is answered from its children's texts, each element read once (elements of at most `max`
 * visible characters; longer ones are read directly). The tree must not change while it is used.
 */
export class ShortTexts {
  readonly #memo: SubtreeMemo<string | null>;
  /** The last element asked about and its text: the cleaning's tests ask about the same element one after another. */
  #last: Element | null = null;
  #lastText = '';

  constructor(measures: Measures, max: number) {
    this.#memo = new SubtreeMemo<string | null>(
      (el, valueOf) => {
        let out = '';
        for (const c of el.children) {
          if (isText(c)) out += c.data;
          else if (isTag(c)) {
            const t = valueOf(c);
            if (t === null) return null;
            out += t;
          }
        }
        // whitespace runs made one space at each level, so that a level's text stays short; trimmed when asked
        return out.replace(/\s+/g, ' ');
      },
      (el) => ((measures.get(el)?.text ?? Infinity) > max ? null : undefined),
    );
  }

  /** The element's text as `textOf` gives it. */
  get(el: Element): string {
    if (el !== this.#last) {
      this.#last = el;
      this.#lastText = readShallow(el) ?? this.#fromMemo(el);
    }
    return this.#lastText;
  }

  #fromMemo(el: Element): string {
    const t = this.#memo.get(el);
    return t === null ? textOf(el) : t.trim();
  }
}

/** `textOf(el)` when no element lies more than `DIRECT_DEPTH` levels below `el`; null as soon as one does. */
function readShallow(el: Element): string | null {
  let out = '';
  const nodes: AnyNode[] = [el];
  const depths: number[] = [0];
  while (nodes.length) {
    const n = nodes.pop()!;
    const depth = depths.pop()!;
    if (isText(n)) out += n.data;
    else if (isTag(n)) {
      if (depth > DIRECT_DEPTH) return null;
      for (let i = n.children.length - 1; i >= 0; i--) {
        nodes.push(n.children[i]!);
        depths.push(depth + 1);
      }
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}
