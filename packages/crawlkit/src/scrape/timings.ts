import { channel } from 'node:diagnostics_channel';

import { createDebug } from 'obug';

/** `DEBUG=crawlkit:timing` prints one line per scrape: each stage's milliseconds. */
const debugTiming = createDebug('crawlkit:timing');

/**
 * Published once per scrape with the time of each stage, when somebody subscribes (the benchmarks do):
 * `subscribe('crawlkit:scrape:timings', ...)` from `node:diagnostics_channel`. The payload is `ScrapeTimings`.
 */
export const timingsChannel = channel('crawlkit:scrape:timings');

/** What `timingsChannel` publishes. */
export interface ScrapeTimings {
  url: string;
  /** Milliseconds per stage, in the order they ran (a stage that ended the scrape early included). */
  stages: { name: string; ms: number }[];
  totalMs: number;
  /** How the scrape ended. */
  outcome: 'success' | 'failure' | 'deferred' | 'dropped';
}

/** The time of each stage of one scrape. */
export class StageTimings {
  readonly #start = performance.now();
  readonly #stages: { name: string; ms: number }[] = [];

  /** Whether anybody reads the timings: otherwise nothing is measured. */
  static get wanted(): boolean {
    return debugTiming.enabled || timingsChannel.hasSubscribers;
  }

  record(name: string, ms: number): void {
    this.#stages.push({ name, ms });
  }

  /** Reports the scrape's timings to the debug namespace and the channel, when either listens. */
  report(url: string, outcome: ScrapeTimings['outcome']): void {
    const timings: ScrapeTimings = { url, stages: this.#stages, totalMs: performance.now() - this.#start, outcome };
    if (debugTiming.enabled) {
      const parts = timings.stages.map((s) => `${s.name} ${s.ms.toFixed(1)}`).join(', ');
      debugTiming(`${url} ${outcome} in ${timings.totalMs.toFixed(1)} ms: ${parts}`);
    }
    if (timingsChannel.hasSubscribers) timingsChannel.publish(timings);
  }
}
