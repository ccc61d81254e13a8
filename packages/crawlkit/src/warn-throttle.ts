/** What was last told of a key: when, and how many were kept quiet since. */
export interface Told {
  at: number;
  unsaid: number;
}

/** Keys remembered at most by default; the oldest told is forgotten past it (and told again at its next). */
const MAX_KEYS = 1_000;

/**
 * When a warning about a key (a job) was last told: the first is told, then one every `everyMs` at most, counting the
 * ones kept quiet in between, which the next told says. One rule for the worker's store faults (`StoreStalls`) and
 * the webhooks' given-up events (`GiveUpNotes`), each with its own wording.
 */
export class WarnThrottle {
  readonly #everyMs: number;
  readonly #maxKeys: number;
  readonly #told = new Map<string, Told>();

  /**
   * @param everyMs Shortest time between two warnings told of one key.
   * @param maxKeys Keys remembered at most. @default 1000
   */
  constructor(everyMs: number, maxKeys = MAX_KEYS) {
    this.#everyMs = everyMs;
    this.#maxKeys = maxKeys;
  }

  /**
   * A warning about `key` at `now`: undefined when it is to be kept quiet (counted), else `{ last }`, what was told
   * before (undefined for the first, or for a key forgotten since).
   */
  tell(key: string, now = Date.now()): { last: Told | undefined } | undefined {
    const last = this.#told.get(key);
    if (last && now - last.at < this.#everyMs) {
      last.unsaid++;
      return undefined;
    }
    this.#told.delete(key);
    this.#told.set(key, { at: now, unsaid: 0 });
    if (this.#told.size > this.#maxKeys) this.#told.delete(this.#told.keys().next().value!);
    return { last };
  }
}
