import type { Container } from './container.js';

/**
 * What an open element leaves to do at its end tag: nothing (`NONE`), end the block (`BOUNDARY`), close a mark
 * (`MARK`, `SUP`), end a paragraph (`PARA`), or a function of its own.
 */
export type Frame = number | { close(): void };
export const NONE = 0;
export const BOUNDARY = 1;
export const MARK = 2;
export const SUP = 3;
export const PARA = 4;

/** The converter's open elements (`frames`, one per start tag fed) and open containers (`cur` the innermost). */
export class Stack {
  readonly containers: Container[];
  readonly frames: Frame[] = [];
  cur: Container;
  /** Quotes, lists, tables and definitions open at once (capped by the converter's `MAX_NESTING`). */
  nesting = 0;

  constructor(root: Container) {
    this.containers = [root];
    this.cur = root;
  }

  push(container: Container): void {
    this.containers.push(container);
    this.cur = container;
  }

  pop(): Container {
    const container = this.containers.pop()!;
    this.cur = this.containers[this.containers.length - 1]!;
    return container;
  }

  /** An element converted as a plain block: its content ends the block before and after it. */
  boundary(cur: Container): boolean {
    cur.boundary();
    this.frames.push(BOUNDARY);
    return true;
  }
}
