// The text of short blocks, for the cleaning's per-element tests: read once for a whole chain of wrappers.
import { isTag, isText, type Element } from 'domhandler';

import { SubtreeMemo } from '../dom/subtree-memo.js';
import { textOf } from '../dom/walk.js';
import type { Measure } from './measure.js';

/**
 * `textOf` for the elements of at most `max` visible characters, each built from its children's texts: the cleaning
 * reads the text of every short block, and in a chain of nested wrappers around the same few words (a toggle inside a
 * toggle, thousands deep) reading each level's subtree again would cost the depth times the size. Longer elements are
 * read directly. The tree must not change while it is used.
 */
export class ShortTexts {
  readonly #memo: SubtreeMemo<string | null>;

  constructor(measures: Map<Element, Measure>, max: number) {
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
    const t = this.#memo.get(el);
    return t === null ? textOf(el) : t.trim();
  }
}
