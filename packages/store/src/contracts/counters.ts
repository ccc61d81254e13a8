/** Named numbers shared by every process using the store, kept across restarts. */

/** Bounds of `CounterStore.add`: an add that would take the value out of them changes nothing. */
export interface CounterBounds {
  max?: number;
  min?: number;
}

/**
 * Named numbers kept by the store, shared by every process using it and kept across restarts: what an engine counts
 * for longer than one process (the credits of an HTTP server's `creditLimit`).
 */
export interface CounterStore {
  /** The counter's value; 0 for one never added to. */
  get(name: string): Promise<number>;
  /**
   * Adds `delta` (negative to subtract) to the counter, atomically across processes, unless the result would pass
   * `bounds`: then nothing changes and the answer is `undefined`. Resolves to the new value.
   */
  add(name: string, delta: number, bounds?: CounterBounds): Promise<number | undefined>;
}
