// Runs every benchmark that exists, each in its own child process, then prints one summary of issue 11's goals.
//
//   pnpm bench                  the full set (builds first); about 33 minutes on 2 quiet cores
//   pnpm bench --quick          every benchmark on a small sample (same code paths), under 3 minutes on 2 quiet cores
//   options: --only a,b         run only these benchmarks (names as in the table below)
//            --skip a,b         leave these out
//
// A benchmark not written yet is skipped with a note; one that crashes or overruns its time limit is reported as
// such (and makes the exit code 1, so CI's smoke run notices). A MISS never fails the run: goals are tracked, not
// gates. Each benchmark writes bench/results/<name>.json in the format of bench/lib/report.ts; this script reads the
// `goals` of each and writes bench/results/summary.json.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { isQuick, machine, printTable, RESULTS_DIR, verdict, type Row } from './lib/report.ts';
import { BENCHMARKS } from './lib/benchmarks.ts';
import { collectGoals, readResult, type Outcome, type Status } from './lib/summary.ts';

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
const selected = BENCHMARKS.filter((b) => (only ? only.includes(b.name) : true) && !skip.includes(b.name));

/** Kills the running benchmark's process group: its own group does not get the terminal's Ctrl-C. */
let stopCurrent = (): void => undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopCurrent();
    process.exit(130);
  });

/**
 * Runs `file` with inherited output in its own process group; resolves its exit code, or 'timeout' after `limitMs`.
 * Then the whole group is killed: a benchmark killed on its time limit (or one that exits leaving a child behind)
 * must not leave its runner processes eating the CPU of the next benchmark.
 */
function runScript(file: string, scriptArgs: string[], env: NodeJS.ProcessEnv, limitMs: number) {
  return new Promise<number | 'timeout'>((resolve) => {
    const child = spawn(process.execPath, [file, ...scriptArgs], { stdio: 'inherit', env, detached: true });
    const group = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // The group is empty already.
      }
    };
    stopCurrent = () => group('SIGKILL');
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      group('SIGTERM');
      setTimeout(() => group('SIGKILL'), 10_000).unref();
    }, limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      group('SIGKILL');
      resolve(timedOut ? 'timeout' : (code ?? (signal ? 128 : 1)));
    });
  });
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
  const scriptArgs = quick ? ['--quick', ...benchmark.quickArgs] : [];
  const env = { ...process.env, ...(quick ? { BENCH_QUICK: '1' } : {}) };
  const since = Date.now();
  const limitMs = (quick ? benchmark.limitMin.quick : benchmark.limitMin.full) * 60_000;
  const code = await runScript(file, scriptArgs, env, limitMs);
  const seconds = Math.round((Date.now() - since) / 1000);
  const { result, note } = readResult(RESULTS_DIR, benchmark.name, since);
  const status: Status = code === 'timeout' ? 'timed out' : code !== 0 ? 'failed' : result ? 'ok' : 'no result file';
  outcomes.push({ benchmark, status, seconds, ...(result ? { result } : {}), ...(note ? { note } : {}) });
  console.log(`=== ${benchmark.name}: ${status}${code !== 0 ? ` (exit ${code})` : ''}, ${seconds} s`);
}

// ---- summary ----

const goals = collectGoals(outcomes);
const goalRows = (issue: boolean): Row[] =>
  goals
    .filter((g) => g.issue === issue)
    .map((g) => ({ '': verdict(g.pass), benchmark: g.benchmark, goal: g.goal, measured: g.value }));

console.log(`\n\n=== summary${quick ? ' (--quick: small samples, for smoke checks, not for claims)' : ''}`);
printTable(
  outcomes.map((o) => ({
    benchmark: o.benchmark.name,
    status: o.status,
    seconds: o.seconds,
    note: o.note ?? '',
  })),
);
console.log("\nissue 11's goals");
printTable(goalRows(true));
console.log("\nthe benchmarks' own goals");
printTable(goalRows(false));
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
