import type { TaskInput } from '@crawlkit/store';

/**
 * How many keys a job's runner remembers: past it, links seen again go to the store's own de-duplication.
 * @default 100,000 keys (a few MB)
 */
const MAX_KEYS = 100_000;

/**
 * The task keys a job's runner has handed to `TaskStore.add`. Once an add has returned, none of its keys can ever be
 * added again: each is a task of the job now (tasks are never removed, dropped ones included) or the job holds its
 * `limit` (which counts every task ever added). So a link met again, such as the home page every page links to, is
 * not sent to the store again: a recrawl of pages that each cost a 304 saves a write transaction a page.
 */
export class OfferedKeys {
  readonly #keys = new Set<string>();
  readonly #max: number;

  constructor(max = MAX_KEYS) {
    this.#max = max;
  }

  /** The tasks whose key was never offered. */
  fresh(tasks: readonly TaskInput[]): TaskInput[] {
    return tasks.filter((task) => !this.#keys.has(task.key));
  }

  /** Records tasks the store's `add` has taken (added or not): call once it resolved. */
  offered(tasks: readonly TaskInput[]): void {
    for (const task of tasks) {
      if (this.#keys.size >= this.#max) return;
      this.#keys.add(task.key);
    }
  }
}
