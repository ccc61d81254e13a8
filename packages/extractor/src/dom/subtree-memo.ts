import { isTag, type Element } from 'domhandler';

/**
 * A value for each element computed from its element children's values (post-order, without recursion), each element
 * computed once however many nested elements are asked about: the cleaning asks again at every level of a chain of
 * thousands of wrappers, which must not cost its depth times its size. The tree must not change while it is used.
 */
export class SubtreeMemo<T> {
  readonly #known = new Map<Element, T>();
  readonly #combine: (el: Element, valueOf: (child: Element) => T) => T;
  readonly #leaf: ((el: Element) => T | undefined) | undefined;

  /**
   * @param combine the value of `el`, given the values of its element children (`valueOf`)
   * @param leaf a value for `el` without reading what is below it, or `undefined` to read below
   */
  constructor(combine: (el: Element, valueOf: (child: Element) => T) => T, leaf?: (el: Element) => T | undefined) {
    this.#combine = combine;
    this.#leaf = leaf;
  }

  get(root: Element): T {
    const known = this.#known.get(root);
    if (known !== undefined) return known;
    const valueOf = (child: Element): T => this.#known.get(child)!;
    // post-order: an element is answered once all its children are
    const stack: [Element, boolean][] = [[root, false]];
    while (stack.length) {
      const [el, ready] = stack.pop()!;
      if (this.#known.has(el)) continue;
      if (!ready) {
        const leaf = this.#leaf?.(el);
        if (leaf !== undefined) {
          this.#known.set(el, leaf);
          continue;
        }
        stack.push([el, true]);
        for (const c of el.children) if (isTag(c) && !this.#known.has(c)) stack.push([c, false]);
        continue;
      }
      this.#known.set(el, this.#combine(el, valueOf));
    }
    return this.#known.get(root)!;
  }
}
