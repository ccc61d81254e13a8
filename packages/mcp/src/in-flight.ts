import { clearTimeout, setTimeout } from 'node:timers';

/**
 * The tool calls under way, so that closing the server waits for them to settle. Closing aborts each call's signal,
 * and a call then does its own ending: a firecrawl_crawl cancels the crawl it started (no agent ever learnt its id).
 * Without the wait, the engine closed under it first and the crawl stayed running in the store, resumed unseen by the
 * next `crawlkit mcp` on it.
 */
export class InFlight {
  readonly #calls = new Set<Promise<unknown>>();

  /** `handler`, its calls counted until they settle. */
  track<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args) => {
      const call = handler(...args);
      this.#calls.add(call);
      const forget = () => void this.#calls.delete(call);
      call.then(forget, forget);
      return call;
    };
  }

  /** Resolves once every call under way has settled, or after `timeoutMs` (a call deaf to its signal). */
  async settled(timeoutMs = 10_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()));
    const all = (async () => {
      while (this.#calls.size > 0) await Promise.allSettled([...this.#calls]);
    })();
    await Promise.race([all, late]).finally(() => clearTimeout(timer));
  }
}
