/**
 * Browser benchmark: `pnpm bench:browser` (or build @crawlkit/actions and @crawlkit/fetcher, then
 * `pnpm exec node bench/browser.ts`).
 *
 * Rendered scrapes of the JavaScript fixture pages (`fixtures/site/js/`), crawlkit's Fetcher (with and without
 * `blockAds`) beside Crawlee's PuppeteerCrawler (bench/lib/crawlee-puppeteer.ts) and a plain puppeteer loop on the
 * same Chromium (one browser, a context per URL, `networkidle0`, `content()`). The machine is shared, so the runners are interleaved (page by page, batch by batch) to meet the same
 * load:
 * - cold: a new engine per page (Chromium start included), p50/p95;
 * - warm, one page at a time: p50/p95 latency and pages per second;
 * - warm, 4 pages at a time: pages per second, in rounds of 8 pages a runner, the runners' order rotating each round
 *   and after each runner's batch a wait (untimed) until its Chromium processes are quiet, so that work a runner
 *   leaves running (pages closing, spare pages opening) is not charged to the next one; the goal is the geometric
 *   mean over rounds of crawlkit's rate over Crawlee's in the same round (each round's pair meets the same load),
 *   beside the ratio of the totals;
 * - peak memory: PSS (shared pages counted once) of each runner's Chromium processes, and of this Node process;
 * - Chromium processes left after close.
 * Prints a table and writes bench/results/browser.json (bench/lib/report.ts format, goals of issue 11).
 * `--quick` (or BENCH_QUICK=1): the same stages on fewer pages (1 cold run, 1 warm-up page, 2 warm pages, 8 pages 4 at
 * a time): a smoke check of every runner, ~40 s. For the goal alone: `BENCH_COLD_RUNS=0 BENCH_WARM_PAGES=0
 * BENCH_RUNNERS='crawlkit Fetcher (browser, blockAds: true)|Crawlee'` (48 pages 4 at a time each, after 6 warm-up).
 *
 * A runner that fails to start, hangs or crashes is recorded in its row (`error`) and the others go on; every render
 * and close has a time limit; the result file is always written. Chromium processes still alive after the runners
 * closed are counted (the goal), then killed, so the benchmark itself leaves none.
 *
 * Adding a runner: implement `Runner` and append it to `RUNNERS`.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

import { startFixtureServer } from '../fixtures/server.ts';
import {
  crawleeRunner,
  crawlkitRunner,
  MIN_RENDERED_CHARS,
  PAGES,
  puppeteerRunner,
  type Engine,
  type Runner,
} from './lib/browser-runners.ts';
import { processesOf, pss } from './lib/process-memory.ts';
import { waitUntilQuiet } from './lib/quiet.ts';
import { finish, goal, isQuick, withRatios, type Row } from './lib/report.ts';

const quick = isQuick();
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? (quick ? 1 : 3));
/** Untimed pages per runner on its warm engine before measuring (browser start, first navigation). */
const WARM_UP_PAGES = quick ? 1 : PAGES.length;
const WARM_PAGES = Number(process.env.BENCH_WARM_PAGES ?? (quick ? 2 : 12));
const PARALLEL_PAGES = Number(process.env.BENCH_PARALLEL_PAGES ?? (quick ? 8 : 48));
const CONCURRENCY = 4;
/** A render, open or close taking longer than this counts as failed (a hung runner must not stall the run). */
const STEP_TIMEOUT_MS = 60_000;
/** How long a closed runner's Chromium processes may take to exit before they count as left. */
const LEFT_GRACE_MS = 5_000;

const CRAWLKIT = 'crawlkit Fetcher (browser, blockAds: true)';
const CRAWLEE = crawleeRunner.name;
/** `BENCH_RUNNERS='crawlkit Fetcher (browser, blockAds: true)|Crawlee'` keeps the runners whose name starts with one of these. */
const RUNNERS: Runner[] = [crawlkitRunner(true), crawlkitRunner(false), crawleeRunner, puppeteerRunner()].filter(
  (runner) => !process.env.BENCH_RUNNERS || process.env.BENCH_RUNNERS.split('|').some((p) => runner.name.startsWith(p)),
);

// ---- measurement helpers ----

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Rejects with a timeout error when `promise` has not settled after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** What one runner did over the run; a runner that breaks keeps its figures so far and its first error. */
interface RunnerState {
  runner: Runner;
  /** The engine of the warm stages. */
  engine?: Engine;
  /** Every Chromium profile its engines used (cold ones too), to find the processes they leave. */
  profiles: Set<string>;
  cold: number[];
  warm: number[];
  parallelMs: number;
  parallelPages: number;
  /** Pages per second of each round of the 4-at-a-time stage. */
  rounds: number[];
  failed: number;
  peakPss: number;
  error?: string;
}

const states: RunnerState[] = RUNNERS.map((runner) => ({
  runner,
  profiles: new Set(),
  cold: [],
  warm: [],
  parallelMs: 0,
  parallelPages: 0,
  rounds: [],
  failed: 0,
  peakPss: 0,
}));
const note = (state: RunnerState, error: unknown): void => {
  state.error ??= error instanceof Error ? error.message : String(error);
};
const remember = (state: RunnerState, engine: Engine): void => {
  for (const profile of engine.profiles()) state.profiles.add(profile);
};

async function open(state: RunnerState, concurrency: number): Promise<Engine | undefined> {
  try {
    return await within(state.runner.open(concurrency), STEP_TIMEOUT_MS, `${state.runner.name} open`);
  } catch (error) {
    note(state, error);
    return undefined;
  }
}

async function close(state: RunnerState, engine: Engine): Promise<void> {
  remember(state, engine);
  try {
    await within(engine.close(), STEP_TIMEOUT_MS, `${state.runner.name} close`);
  } catch (error) {
    note(state, error);
  }
}

/** Renders `url`; a failure (a timeout on an overloaded machine, say) is counted for the runner, not fatal. */
async function render(state: RunnerState, engine: Engine, url: string): Promise<void> {
  try {
    const html = await within(engine.render(url), STEP_TIMEOUT_MS, `${state.runner.name} render`);
    if (html.length < MIN_RENDERED_CHARS) state.failed++;
  } catch (error) {
    state.failed++;
    note(state, error);
  } finally {
    remember(state, engine);
  }
}

/** Peak PSS of each runner's Chromium processes, and of this Node process, sampled every 500 ms. */
class PeakMemory {
  node = 0;
  #timer: NodeJS.Timeout | undefined;
  start(): void {
    this.#timer = setInterval(() => this.sample(), 500);
  }
  sample(): void {
    this.node = Math.max(this.node, pss('self'));
    for (const state of states) {
      if (!state.engine) continue;
      const bytes = processesOf(state.engine.profiles()).reduce((sum, pid) => sum + pss(pid), 0);
      state.peakPss = Math.max(state.peakPss, bytes);
    }
  }
  stop(): void {
    clearInterval(this.#timer);
    this.sample();
  }
}

// ---- the run ----

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const server = await startFixtureServer();
const urls = PAGES.map((p) => server.url + p);
const memory = new PeakMemory();
let fatal: string | undefined;
const runStarted = performance.now();
const elapsed = () => `${((performance.now() - runStarted) / 1000).toFixed(0)} s`;

try {
  // Cold: a new engine per page (Chromium start included), runners taking turns.
  for (let i = 0; i < COLD_RUNS; i++) {
    for (const state of states) {
      const started = performance.now();
      const engine = await open(state, 1);
      if (!engine) continue;
      await render(state, engine, urls[i % urls.length]!);
      state.cold.push(performance.now() - started);
      await close(state, engine);
    }
  }
  log(`cold runs done (${elapsed()})`);

  // Warm: every runner's engine open, pages taken in turns.
  for (const state of states) {
    const engine = await open(state, CONCURRENCY);
    if (engine) state.engine = engine;
  }
  memory.start();
  for (const state of states)
    for (const url of urls.slice(0, WARM_UP_PAGES)) if (state.engine) await render(state, state.engine, url);
  for (let i = 0; i < WARM_PAGES; i++) {
    for (const state of states) {
      if (!state.engine) continue;
      const started = performance.now();
      await render(state, state.engine, urls[i % urls.length]!);
      state.warm.push(performance.now() - started);
    }
  }
  log(`warm pages one at a time done (${elapsed()})`);

  // Warm, CONCURRENCY pages at a time: batches of up to 2 × CONCURRENCY pages, runners taking turns in an order that
  // rotates each round.
  const BATCH = CONCURRENCY * 2;
  for (let done = 0, round = 0; done < PARALLEL_PAGES; done += BATCH, round++) {
    for (const state of [...states.slice(round % states.length), ...states.slice(0, round % states.length)]) {
      const engine = state.engine;
      if (!engine) continue;
      let next = done;
      const end = Math.min(PARALLEL_PAGES, done + BATCH);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < end) await render(state, engine, urls[next++ % urls.length]!);
        }),
      );
      const took = performance.now() - started;
      state.parallelMs += took;
      state.parallelPages += end - done;
      state.rounds.push((end - done) / (took / 1000));
      // Untimed: until the runner's Chromium rests (5% of a core over 250 ms, at most 10 s).
      await waitUntilQuiet(() => processesOf(engine.profiles()));
    }
  }
  log(`warm pages ${CONCURRENCY} at a time done (${elapsed()})`);
} catch (error) {
  // Only a defect of this script lands here (runner failures are caught per step): keep what was measured.
  fatal = error instanceof Error ? (error.stack ?? error.message) : String(error);
  log(`browser benchmark stopped early: ${fatal}`);
} finally {
  memory.stop();
  for (const state of states) if (state.engine) await close(state, state.engine);
  await server.close().catch(() => undefined);
}

// Processes still alive LEFT_GRACE_MS after every close are what a runner leaves behind (the goal); then they are
// killed. A loaded machine can take a second or two to reap a browser's processes after close() resolves: the ones
// still exiting right after close are recorded too (`exitingAtClose`).
const exitingAtClose = states.map((state) => processesOf([...state.profiles]).length);
const graceEnd = performance.now() + LEFT_GRACE_MS;
while (performance.now() < graceEnd && states.some((state) => processesOf([...state.profiles]).length > 0))
  await new Promise((resolve) => setTimeout(resolve, 200));
const left = states.map((state) => processesOf([...state.profiles]));
let killed = 0;
for (const pid of left.flat()) {
  try {
    process.kill(pid, 'SIGKILL');
    killed++;
  } catch {
    // Already gone.
  }
}
// Profiles of runners whose close failed (the ones under the temp dir only).
for (const profile of states.flatMap((s) => [...s.profiles]))
  if (profile.startsWith(tmpdir())) rmSync(profile, { recursive: true, force: true });

const rate = (pages: number, ms: number): number | null => (ms > 0 ? Number((pages / (ms / 1000)).toFixed(2)) : null);
const ms = (values: number[], p: number): number | null =>
  values.length
    ? Math.round(
        percentile(
          [...values].sort((a, b) => a - b),
          p,
        ),
      )
    : null;
const PARALLEL = `pages/s (${CONCURRENCY} at a time)`;
const rows: Row[] = states.map((state, r) => ({
  runner: state.runner.name,
  'cold p50 ms': ms(state.cold, 0.5),
  'cold p95 ms': ms(state.cold, 0.95),
  'warm p50 ms': ms(state.warm, 0.5),
  'warm p95 ms': ms(state.warm, 0.95),
  'pages/s (1 at a time)': rate(
    state.warm.length,
    state.warm.reduce((a, b) => a + b, 0),
  ),
  [PARALLEL]: rate(state.parallelPages, state.parallelMs),
  'peak Chromium PSS MB': state.peakPss ? Math.round(state.peakPss / 2 ** 20) : null,
  'Chromium left': left[r]!.length,
  failed: state.failed,
  error: state.error ?? '',
}));
const parallelOf = (name: string): number => {
  const v = rows.find((r) => r.runner === name)?.[PARALLEL];
  return typeof v === 'number' ? v : Number.NaN;
};
const overallVsCrawlee = parallelOf(CRAWLKIT) / parallelOf(CRAWLEE);
const roundsOf = (name: string) => states.find((s) => s.runner.name === name)?.rounds ?? [];
/** crawlkit's rate over Crawlee's, round by round (both met the same load in a round). */
const roundRatios = roundsOf(CRAWLKIT)
  .map((rate, i) => rate / (roundsOf(CRAWLEE)[i] ?? Number.NaN))
  .filter(Number.isFinite);
const sortedRatios = [...roundRatios].sort((a, b) => a - b);
/** Their geometric mean: runners alternate who goes first in a round, and the order shows (the runner that follows
 * its own batch came out faster in most runs), so both orders weigh the same. */
const vsCrawlee = Math.exp(roundRatios.reduce((sum, r) => sum + Math.log(r), 0) / roundRatios.length);
const leftOf = (crawlkit: boolean) =>
  states.filter((s) => s.runner.name.startsWith('crawlkit') === crawlkit).map((s) => left[states.indexOf(s)]!.length);
const crawlkitLeft = leftOf(true).reduce((a, b) => a + b, 0);
const othersLeft = states
  .filter((s) => !s.runner.name.startsWith('crawlkit'))
  .map((s) => `${s.runner.name}: ${left[states.indexOf(s)]!.length}`)
  .join(', ');
const nodeMB = Math.round(memory.node / 2 ** 20);
const peakOf = (name: string) => Math.round((states.find((s) => s.runner.name === name)?.peakPss ?? 0) / 2 ** 20);
const crawlkitRan = states.some((s) => s.runner.name.startsWith('crawlkit') && s.profiles.size > 0);

finish({
  name: 'browser',
  title: `browser: rendered scrapes of ${PAGES.length} JS fixture pages, runners interleaved page by page and batch by batch`,
  quick,
  rows: withRatios(rows, PARALLEL, CRAWLKIT, 'runner'),
  notes: [
    `'vs crawlkit' = pages/s ${CONCURRENCY} at a time over crawlkit's (blockAds: true, v2's default). Peak PSS of the Node process (all runners together): ${nodeMB} MB`,
    `'Chromium left' = processes of the runner's profiles alive ${LEFT_GRACE_MS / 1000} s after the runners closed${killed ? ` (${killed} killed by the benchmark afterwards)` : ''}.`,
    ...(fatal ? [`stopped early: ${fatal}`] : []),
  ],
  goals: [
    goal(
      'browser.vs-crawlee',
      "browser >= 1.3x Crawlee's rendered pages/s",
      vsCrawlee,
      1.3,
      `${vsCrawlee.toFixed(2)}x geometric mean of ${roundRatios.length} rounds (${sortedRatios[0]?.toFixed(2)}-${sortedRatios.at(-1)?.toFixed(2)}); totals ${overallVsCrawlee.toFixed(2)}x (${parallelOf(CRAWLKIT)} vs ${parallelOf(CRAWLEE)} pages/s, ${CONCURRENCY} at a time)`,
    ),
    goal(
      'browser.memory',
      "browser: peak Chromium PSS no higher than Crawlee's (issue 21)",
      peakOf(CRAWLEE) ? peakOf(CRAWLKIT) / peakOf(CRAWLEE) : Number.NaN,
      1,
      `${peakOf(CRAWLKIT)} vs ${peakOf(CRAWLEE)} MB`,
      { atMost: true },
    ),
    goal(
      'browser.leftovers',
      'browser: zero Chromium processes left',
      crawlkitRan ? crawlkitLeft : Number.NaN,
      0,
      `crawlkit ${crawlkitLeft} (${othersLeft})`,
      { atMost: true },
    ),
  ],
  data: {
    pages: PAGES,
    coldRuns: COLD_RUNS,
    warmUpPages: WARM_UP_PAGES,
    warmPages: WARM_PAGES,
    parallelPages: PARALLEL_PAGES,
    concurrency: CONCURRENCY,
    roundRatios,
    nodePeakMB: nodeMB,
    killedAfterwards: killed,
    ...(fatal ? { fatal } : {}),
    runners: states.map((s, r) => ({
      runner: s.runner.name,
      coldMs: s.cold,
      warmMs: s.warm,
      parallelPages: s.parallelPages,
      parallelMs: s.parallelMs,
      rounds: s.rounds,
      failed: s.failed,
      left: left[r]!.length,
      exitingAtClose: exitingAtClose[r],
      ...(s.error ? { error: s.error } : {}),
    })),
  },
});
