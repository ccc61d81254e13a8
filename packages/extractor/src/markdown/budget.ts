import { MarkdownBudgetError } from './errors.js';

/** How many cheap steps pass between two clock reads. */
const STEPS_PER_CHECK = 512;

/** Cooperative time budget: `tick()` on every unit of work, `check()` after an expensive one. */
export class Budget {
  readonly #deadline: number;
  #steps = 0;

  constructor(deadline: number | undefined) {
    this.#deadline = deadline ?? Number.POSITIVE_INFINITY;
  }

  get limited(): boolean {
    return this.#deadline !== Number.POSITIVE_INFINITY;
  }

  tick(): void {
    if (++this.#steps >= STEPS_PER_CHECK) {
      this.#steps = 0;
      this.check();
    }
  }

  check(): void {
    if (this.#deadline !== Number.POSITIVE_INFINITY && Date.now() > this.#deadline) throw new MarkdownBudgetError();
  }
}
