// Which rule kept each part of the output: the precision view of the extraction benchmark, off by default.
import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

/**
 * Names of the rules that keep text in the output. `container`: inside the chosen container, no rule questioned it;
 * `page`: no candidate, the whole cleaned page; the others keep text that looks like furniture, for a reason.
 */
export type KeepRule =
  | 'container'
  | 'page'
  /** chrome (class, tag or role) holding 40% or more of the page's text */
  | 'large-chrome'
  /** link-only chrome or an overlay kept because too little would remain without it */
  | 'menu-needed'
  /** a comment or review section beside too little other prose (a discussion page) */
  | 'discussion'
  /** lists of short links that together are half of the container (an index) */
  | 'index'
  /** a section under a furniture heading that is 30% or more of the container */
  | 'large-section'
  /** a grid of teaser cards kept by the position and prose guards (a listing) */
  | 'teaser-grid'
  /** intro paragraphs between the title and the container, outside it (`lede.ts`) */
  | 'lede';

/** Marks elements with the rule that kept them; reads the output's text back per rule. */
export class KeepTrace {
  readonly #marks = new Map<Element, KeepRule>();

  /** The first mark of an element wins (the outermost decision is made first). */
  mark(el: Element, rule: KeepRule): void {
    if (!this.#marks.has(el)) this.#marks.set(el, rule);
  }

  /** Visible text under `root` grouped by the innermost marked element holding it (`rootRule` elsewhere). */
  textByRule(root: ParentNode, rootRule: KeepRule): Partial<Record<KeepRule, string>> {
    const out: Partial<Record<KeepRule, string>> = {};
    const stack: [AnyNode, KeepRule][] = [...root.children].reverse().map((c) => [c, rootRule]);
    while (stack.length) {
      const [node, rule] = stack.pop()!;
      if (isText(node)) {
        out[rule] = (out[rule] ?? '') + node.data;
      } else if (isTag(node)) {
        const own = this.#marks.get(node) ?? rule;
        // block boundaries separate words
        out[own] = (out[own] ?? '') + ' ';
        for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i]!, own]);
      }
    }
    return out;
  }
}
