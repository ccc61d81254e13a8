import { joinBlocks, prefixLines } from './blocks.js';
import type { Block, Container } from './container.js';
import type { Stack } from './stack.js';

/**
 * `<dl>`s open at once, each with whether a `<dt>` was seen in it: what a `<dd>` writes depends on it. MediaWiki
 * indents a display formula with a `<dl><dd>` and no term; written as a definition it read `: $$ …`.
 */
export class DefinitionLists {
  readonly #stack: Stack;
  readonly #terms: boolean[] = [];

  constructor(stack: Stack) {
    this.#stack = stack;
  }

  /** `<dl>`: a plain block that remembers its terms. */
  open(cur: Container): boolean {
    cur.boundary();
    this.#terms.push(false);
    this.#stack.frames.push({
      close: () => {
        this.#terms.pop();
        this.#stack.cur.boundary();
      },
    });
    return true;
  }

  /** A `<dt>` in the innermost `<dl>`. */
  sawTerm(): void {
    if (this.#terms.length > 0) this.#terms[this.#terms.length - 1] = true;
  }

  /** The block a closed `<dd>` writes: its display formula alone in a `<dl>` without terms, or `: …`. */
  definition(blocks: readonly Block[]): Block | undefined {
    const only = blocks.length === 1 ? blocks[0]! : undefined;
    if (only?.kind === 'math' && this.#terms[this.#terms.length - 1] === false) return only;
    const text = joinBlocks(blocks, false);
    return text === '' ? undefined : { kind: 'dd', text: prefixLines(text, ': ', '  ', '') };
  }
}
