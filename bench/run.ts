// Runs every benchmark that exists, each in its own child process, then prints one summary of issue 11's goals.
//
//   pnpm bench                  the full set (builds first); about 35 minutes on 2 shared cores
//   pnpm bench --quick          the reduced set (every benchmark on a small sample), about 3 minutes
//   options: --only a,b         run only these benchmarks (names as in the table below)
//            --skip a,b         leave these out
//
// A benchmark not written yet is skipped with a note; one that crashes or overruns its time limit is reported as
// such (and makes the exit code 1, so CI's smoke run notices). A MISS never fails the run: goals are tracked, not
// gates. Each benchmark writes bench/results/<name>.json in the format of bench/lib/report.ts; this script reads the
// `goals` of each and writes bench/results/summary.json.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  isQuick,
  machine,
  printTable,
  RESULTS_DIR,
  verdict,
  type Goal,
  type ResultFile,
  type Row,
} from './lib/report.ts';

interface Benchmark {
  name: string;
  /** Script under bench/. */
  file: string;
  /** Extra arguments of the quick run (`--quick` is always passed then). */
  quickArgs?: string[];
  /** Environment of the quick run (BENCH_QUICK=1 is always set then). */
  quickEnv?: Record<string, string>;
  /** Whether the quick run includes it. @default true */
  inQuick?: boolean;
  /** Time limit in minutes (quick runs too: a loaded shared machine can be 5x slower). */
  limitMin: number;
  /** The goals of issue 11 this benchmark reports (ids), so that a missing one shows in the summary. */
  goals: { id: string; goal: string }[];
}

const BENCHMARKS: Benchmark[] = [
  {
    name: 'extract',
    file: 'extract.ts',
    // The Readability reference row costs ~0.4 s a page: the quick run scores crawlkit alone.
    quickArgs: ['--no-reference'],
    limitMin: 25,
    goals: [{ id: 'extract.f1', goal: 'extract: F1 >= 0.86 with without-snippets <= 8% (extractor target)' }],
  },
  {
    name: 'markdown',
    file: 'markdown.ts',
    limitMin: 15,
    goals: [
      { id: 'markdown.vs-turndown', goal: 'markdown >= 4x turndown at the median page' },
      { id: 'markdown.linear', goal: 'markdown linear in size' },
    ],
  },
  {
    name: 'scrape-http',
    file: 'scrape-http.ts',
    limitMin: 25,
    goals: [
      { id: 'scrape-http.vs-naive', goal: "scrape-http >= 5x the naive pipeline's pages/s" },
      { id: 'scrape-http.vs-floor', goal: 'scrape-http within 3x of the parse-only floor' },
    ],
  },
  {
    name: 'crawl-http',
    file: 'crawl-http.ts',
    limitMin: 30,
    goals: [
      { id: 'crawl-http.vs-crawlee', goal: "crawl-http >= 1.5x Crawlee's pages/min with markdown on" },
      { id: 'crawl-http.rss', goal: 'crawl-http lower peak RSS than Crawlee' },
    ],
  },
  {
    name: 'browser',
    file: 'browser.ts',
    limitMin: 20,
    goals: [
      { id: 'browser.vs-crawlee', goal: "browser >= 1.3x Crawlee's rendered pages/s" },
      { id: 'browser.leftovers', goal: 'browser: zero Chromium processes left' },
    ],
  },
  {
    name: 'cache',
    file: 'cache.ts',
    limitMin: 10,
    goals: [{ id: 'cache.hit-vs-miss', goal: 'cache hit >= 50x faster than a miss' }],
  },
  { name: 'batch', file: 'batch.ts', limitMin: 15, goals: [] },
  { name: 'change-tracking', file: 'change-tracking.ts', limitMin: 10, goals: [] },
  { name: 'distributed', file: 'distributed.ts', limitMin: 15, goals: [] },
  { name: 'store', file: 'store.ts', inQuick: false, limitMin: 10, goals: [] },
  { name: 'http-overhead', file: 'http-overhead.ts', inQuick: false, limitMin: 10, goals: [] },
];

const args = process.argv.slice(2);
const quick = isQuick(args);
const list = (flag: string): string[] | undefined => {
  const i = args.indexOf(flag);
  return i >= 0 ? (args[i + 1] ?? '').split(',').filter(Boolean) : undefined;
};
const only = list('--only');
const skip = list('--skip') ?? [];
for (const name of [...(only ?? []), ...skip]) {
  if (!BENCHMARKS.some((b) => b.name === name)) {
    process.stderr.write(`unknown benchmark ${name}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}\n`);
    process.exit(2);
  }
}
const selected = BENCHMARKS.filter(
  (b) => (only ? only.includes(b.name) : quick ? b.inQuick !== false : true) && !skip.includes(b.name),
);

type Status = 'ok' | 'not written yet' | 'failed' | 'timed out' | 'no result file';
interface Outcome {
  benchmark: Benchmark;
  status: Status;
  seconds: number;
  result?: ResultFile;
  /** Why the result could not be read. */
  note?: string;
}

/** Runs `file` with inherited output; resolves its exit code, or 'timeout' after `limitMs` (then kills it). */
function runScript(file: string, scriptArgs: string[], env: NodeJS.ProcessEnv, limitMs: number) {
  return new Promise<number | 'timeout'>((resolve) => {
    const child = spawn(process.execPath, [file, ...scriptArgs], { stdio: 'inherit', env });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(timedOut ? 'timeout' : (code ?? (signal ? 128 : 1)));
    });
  });
}

function readResult(name: string, since: number): { result?: ResultFile; note?: string } {
  const path = join(RESULTS_DIR, `${name}.json`);
  if (!existsSync(path) || statSync(path).mtimeMs < since) return { note: `bench/results/${name}.json not written` };
  try {
    const result = JSON.parse(readFileSync(path, 'utf8')) as ResultFile;
    if (!Array.isArray(result.goals))
      return { result, note: 'result file has no goals (not the lib/report.ts format)' };
    return { result };
  } catch (error) {
    return { note: `unreadable result: ${(error as Error).message}` };
  }
}

const here = import.meta.dirname;
const outcomes: Outcome[] = [];
const runStarted = Date.now();
console.log(
  `crawlkit benchmarks${quick ? ' (--quick)' : ''}: ${selected.map((b) => b.name).join(', ')}\n` +
    `machine: ${JSON.stringify(machine())}`,
);
for (const benchmark of selected) {
  const file = join(here, benchmark.file);
  if (!existsSync(file)) {
    console.log(`\n=== ${benchmark.name}: skipped, bench/${benchmark.file} is not written yet`);
    outcomes.push({ benchmark, status: 'not written yet', seconds: 0 });
    continue;
  }
  console.log(`\n=== ${benchmark.name} (bench/${benchmark.file})`);
  const scriptArgs = quick ? ['--quick', ...(benchmark.quickArgs ?? [])] : [];
  const env = { ...process.env, ...(quick ? { BENCH_QUICK: '1', ...benchmark.quickEnv } : {}) };
  const since = Date.now();
  const limitMs = benchmark.limitMin * 60_000;
  const code = await runScript(file, scriptArgs, env, limitMs);
  const seconds = Math.round((Date.now() - since) / 1000);
  const { result, note } = readResult(benchmark.name, since);
  const status: Status = code === 'timeout' ? 'timed out' : code !== 0 ? 'failed' : result ? 'ok' : 'no result file';
  outcomes.push({ benchmark, status, seconds, ...(result ? { result } : {}), ...(note ? { note } : {}) });
  console.log(`=== ${benchmark.name}: ${status}${code !== 0 ? ` (exit ${code})` : ''}, ${seconds} s`);
}

// ---- summary ----

const goalRows: Row[] = [];
const goals: (Goal & { benchmark: string })[] = [];
for (const o of outcomes) {
  const reported = o.result?.goals ?? [];
  const expected = o.benchmark.goals;
  const why = o.status === 'ok' ? (o.note ?? 'not reported') : o.status;
  for (const e of expected) {
    const g = reported.find((r) => r.id === e.id) ?? { id: e.id, goal: e.goal, value: `(${why})`, pass: null };
    goals.push({ benchmark: o.benchmark.name, ...g });
  }
  for (const g of reported) if (!expected.some((e) => e.id === g.id)) goals.push({ benchmark: o.benchmark.name, ...g });
}
for (const g of goals) goalRows.push({ '': verdict(g.pass), benchmark: g.benchmark, goal: g.goal, measured: g.value });

console.log(`\n\n=== summary${quick ? ' (--quick: small samples, for smoke checks, not for claims)' : ''}`);
printTable(
  outcomes.map((o) => ({
    benchmark: o.benchmark.name,
    status: o.status,
    seconds: o.seconds,
    note: o.note ?? '',
  })),
);
console.log('');
printTable(goalRows);
const count = (p: boolean | null) => goals.filter((g) => g.pass === p).length;
const totalSeconds = Math.round((Date.now() - runStarted) / 1000);
console.log(
  `\n${count(true)} PASS, ${count(false)} MISS, ${count(null)} not measured; ${totalSeconds} s in all. Goals are tracked, never a gate.`,
);

mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(
  join(RESULTS_DIR, `summary${quick ? '-quick' : ''}.json`),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      quick,
      machine: machine(),
      seconds: totalSeconds,
      benchmarks: outcomes.map((o) => ({
        name: o.benchmark.name,
        status: o.status,
        seconds: o.seconds,
        ...(o.note ? { note: o.note } : {}),
      })),
      goals,
    },
    null,
    2,
  )}\n`,
);
const broken = outcomes.filter((o) => o.status === 'failed' || o.status === 'timed out');
if (broken.length) {
  console.log(`benchmarks that did not finish: ${broken.map((o) => o.benchmark.name).join(', ')}`);
  process.exitCode = 1;
}
