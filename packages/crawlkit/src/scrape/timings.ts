import { channel } from 'node:diagnostics_channel';

import { redactUrl } from '@crawlkit/fetcher';
import { createDebug } from 'obug';

import { addCallTimes, type CallTimes } from '../extraction/call-times.js';
import type { CallWatch } from '../extraction/pool.js';

/** `DEBUG=crawlkit:timing` prints one line per scrape: each stage's milliseconds. */
const debugTiming = createDebug('crawlkit:timing');

/**
 * Published once per scrape with the time of each stage, when somebody subscribes (the benchmarks do):
 * `subscribe('crawlkit:scrape:timings', ...)` from `node:diagnostics_channel`. The payload is `ScrapeTimings`.
 */
export const timingsChannel = channel('crawlkit:scrape:timings');

/** What `timingsChannel` publishes. */
export interface ScrapeTimings {
  /** The page's URL, without the credentials of its user info (`https://user:pass@host` is `https://host`). */
  url: string;
  /** Milliseconds per stage, in the order they ran (a stage that ended the scrape early included). */
  stages: { name: string; ms: number }[];
  totalMs: number;
  /**
   * Where the `extract` stage's time went, when the page was extracted in the worker pool (the judge's call and the
   * extraction's, added up): the wait for a worker, the worker's run and its thread's CPU in it, the reply's way back.
   */
  extraction?: CallTimes;
  /** How the scrape ended. */
  outcome: 'success' | 'failure' | 'deferred' | 'dropped';
}

/** The time of each stage of one scrape. */
export class StageTimings {
  readonly #start = performance.now();
  readonly #stages: { name: string; ms: number }[] = [];
  /** Time the running stage spent on other stages' work (see `recordInside`), taken off its own when it ends. */
  #inside = 0;
  /** That time per stage it belongs to, added to the stage's own when it ends (or reported apart if it never runs). */
  readonly #movedTo = new Map<string, number>();
  #extraction: CallTimes | undefined;

  /** Whether anybody reads the timings: otherwise nothing is measured. */
  static get wanted(): boolean {
    return debugTiming.enabled || timingsChannel.hasSubscribers;
  }

  /** The stage `name` took `ms`; the work of other stages it did inside is counted under theirs. */
  record(name: string, ms: number): void {
    const moved = this.#movedTo.get(name) ?? 0;
    this.#movedTo.delete(name);
    this.#stages.push({ name, ms: ms - this.#inside + moved });
    this.#inside = 0;
  }

  /**
   * The running stage did `ms` of stage `name`'s work (the fetch's render judge extracts the page it judges): the
   * time is counted under `name`, not under the running stage.
   */
  recordInside(name: string, ms: number): void {
    this.#inside += ms;
    this.#movedTo.set(name, (this.#movedTo.get(name) ?? 0) + ms);
  }

  /** An extraction call of the scrape answered, its time split as `times`. */
  recordExtraction(times: CallTimes): void {
    this.#extraction = this.#extraction ? addCallTimes(this.#extraction, times) : times;
  }

  /** Reports the scrape's timings to the debug namespace and the channel, when either listens. */
  report(url: string, outcome: ScrapeTimings['outcome']): void {
    for (const [name, ms] of this.#movedTo) this.#stages.push({ name, ms });
    this.#movedTo.clear();
    const timings: ScrapeTimings = {
      url: redactUrl(url),
      stages: this.#stages,
      totalMs: performance.now() - this.#start,
      outcome,
    };
    if (this.#extraction) timings.extraction = this.#extraction;
    if (debugTiming.enabled) {
      const parts = timings.stages.map((s) => `${s.name} ${s.ms.toFixed(1)}`).join(', ');
      const split = this.#extraction ? ` (${extractionLine(this.#extraction)})` : '';
      debugTiming(`${timings.url} ${outcome} in ${timings.totalMs.toFixed(1)} ms: ${parts}${split}`);
    }
    if (timingsChannel.hasSubscribers) timingsChannel.publish(timings);
  }
}

/** The extraction's split as the debug line prints it. */
function extractionLine({ waitMs, runMs, cpuMs, replyMs }: CallTimes): string {
  const ms = (n: number) => n.toFixed(1);
  const cpu = cpuMs === undefined ? '' : ` with CPU ${ms(cpuMs)}`;
  return `extract: wait ${ms(waitMs)}, worker ${ms(runMs)}${cpu}, reply ${ms(replyMs)}`;
}

/**
 * What a scrape's extraction call tells: its start to the scrape's deadline (the extraction's budget counts from it),
 * and where its time went to the scrape's timings, when anybody reads them.
 */
export function extractionWatch(state: { deadline: { running: () => void }; timings: StageTimings }): CallWatch {
  const watch: CallWatch = { onStart: state.deadline.running };
  if (StageTimings.wanted) watch.onTimes = (times) => state.timings.recordExtraction(times);
  return watch;
}
