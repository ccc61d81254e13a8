import type { Block } from './container.js';

/** Output is sealed into flat strings of about this many characters as it grows. */
const CHUNK = 1 << 18;

/**
 * The document's top-level blocks, separated by blank lines. Blocks are folded into large flat chunks as they
 * arrive, so the many small strings die young instead of surviving (and being copied by) every scavenge.
 */
export class Output {
  readonly #chunks: string[] = [];
  #pending = '';
  #empty = true;

  add(block: Block): void {
    this.#pending = this.#empty ? block.text : this.#pending + '\n\n' + block.text;
    this.#empty = false;
    if (this.#pending.length >= CHUNK) {
      // Reading a character flattens the rope into one sequential string.
      this.#pending.charCodeAt(0);
      this.#chunks.push(this.#pending);
      this.#pending = '';
    }
  }

  toString(): string {
    if (this.#chunks.length === 0) return this.#pending;
    return this.#chunks.join('') + this.#pending;
  }
}
