// The shared result format of every benchmark: the machine it ran on, a table of rows (each with its ratio to
// crawlkit's row), the goals of issue 11 with PASS/MISS, written to bench/results/<name>.json and printed.
//
//   import { finish, goal, isQuick } from './lib/report.ts';
//   finish({ name: 'scrape-http', title: '...', quick: isQuick(), columns, rows, goals: [goal(...)], data: {...} });
//
// `bench/run.ts` reads `goals` from each result file to print one summary; keep their `id`s stable.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** `--quick` on the command line or `BENCH_QUICK=1`: the reduced set `pnpm bench --quick` runs. */
export function isQuick(argv: readonly string[] = process.argv.slice(2)): boolean {
  return argv.includes('--quick') || /^(1|true|yes)$/i.test(process.env['BENCH_QUICK'] ?? '');
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  /** `chromium --version`, or null when it is not installed. */
  chromium: string | null;
  platform: string;
  /** 1, 5 and 15 minute load averages when the benchmark finished: other work on a shared machine shows here. */
  loadAverage: number[];
}

let chromiumVersion: string | null | undefined;

/** The machine a result was measured on, so that results of different days are compared by ratio. */
export function machine(): Machine {
  if (chromiumVersion === undefined) {
    try {
      chromiumVersion = execFileSync(process.env['CRAWLKIT_CHROMIUM'] ?? '/usr/bin/chromium', ['--version'], {
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 10_000,
      })
        .toString()
        .trim();
    } catch {
      chromiumVersion = null;
    }
  }
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    chromium: chromiumVersion,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export interface Goal {
  /** Stable id, e.g. `scrape-http.vs-naive`. */
  id: string;
  /** The goal as issue 11 states it, e.g. `>= 5x the naive pipeline's pages/s`. */
  goal: string;
  /** What was measured, e.g. `7.2x (412 vs 57 pages/s)`. */
  value: string;
  /** Whether the goal is met; null when this run could not measure it. */
  pass: boolean | null;
}

/** A goal of the form `measured >= target` (or `<=` with `atMost`). A non-finite measurement is not measured. */
export function goal(
  id: string,
  text: string,
  measured: number,
  target: number,
  value: string,
  options: { atMost?: boolean } = {},
): Goal {
  if (!Number.isFinite(measured)) return { id, goal: text, value, pass: null };
  return { id, goal: text, value, pass: options.atMost ? measured <= target : measured >= target };
}

export const verdict = (pass: boolean | null): string => (pass === null ? 'n/a ' : pass ? 'PASS' : 'MISS');

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

/** Prints `rows` as an aligned text table: numbers right-aligned, everything else left-aligned. */
export function printTable(rows: readonly Row[], columns: readonly string[] = Object.keys(rows[0] ?? {})): void {
  const text = (cell: Cell | undefined): string =>
    cell === null || cell === undefined || (typeof cell === 'number' && Number.isNaN(cell))
      ? '-'
      : typeof cell === 'number'
        ? formatNumber(cell)
        : String(cell);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => text(r[c]).length)));
  const line = (cells: string[], numeric: boolean[]) =>
    cells.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  const numeric = columns.map((c) => rows.some((r) => typeof r[c] === 'number'));
  console.log(line([...columns], numeric).trimEnd());
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows)
    console.log(
      line(
        columns.map((c) => text(row[c])),
        numeric,
      ).trimEnd(),
    );
}

/** Three significant digits (whole numbers from 100 up), no exponent: 1234.5 → `1235`, 12.345 → `12.3`. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return n.toFixed(0);
  return String(Number(n.toPrecision(3)));
}

/** Prints goals with PASS/MISS in front. */
export function printGoals(goals: readonly Goal[]): void {
  if (goals.length === 0) return;
  console.log('\ngoals (tracked, never a CI gate)');
  for (const g of goals) console.log(`  ${verdict(g.pass)}  ${g.goal}: ${g.value}`);
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The value at quantile `p` (0..1) by nearest rank. */
export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!;
};

export interface BenchResult {
  /** File name without `.json`, e.g. `scrape-http`. */
  name: string;
  /** One line saying what was measured. */
  title: string;
  quick: boolean;
  /** Column order of the printed table (defaults to the keys of the first row). */
  columns?: readonly string[];
  rows: readonly Row[];
  goals: readonly Goal[];
  /** Everything else worth keeping (settings, per-round figures). */
  data?: Record<string, unknown>;
  /** Lines printed under the table. */
  notes?: readonly string[];
  /** Write `bench/results/<name>.json` (false for a partial run, e.g. one page type). @default true */
  write?: boolean;
}

/** The file a benchmark writes, as `bench/run.ts` reads it. */
export interface ResultFile {
  name: string;
  title: string;
  date: string;
  quick: boolean;
  machine: Machine;
  durationMs: number;
  rows: readonly Row[];
  goals: readonly Goal[];
  data?: Record<string, unknown>;
}

/**
 * Adds a `vs crawlkit` column to `rows`: `rows[i][metric] / rows[crawlkit][metric]` (`higherIsBetter`) so that 0.2
 * means a fifth of crawlkit's figure. The crawlkit row is the one whose `nameKey` equals `crawlkitName`.
 */
export function withRatios(
  rows: readonly Row[],
  metric: string,
  crawlkitName: string,
  nameKey = 'row',
  column = 'vs crawlkit',
): Row[] {
  const base = rows.find((r) => r[nameKey] === crawlkitName)?.[metric];
  return rows.map((r) => {
    const value = r[metric];
    const ratio =
      typeof value === 'number' && typeof base === 'number' && base !== 0
        ? Math.round((value / base) * 1000) / 1000
        : null;
    return { ...r, [column]: ratio };
  });
}

const started = performance.now();

/** Prints the table, notes and goals, and writes `bench/results/<name>.json` (unless `write` is false). Returns the
 * file path. */
export function finish(result: BenchResult): string {
  console.log(`\n${result.title}${result.quick ? ' (--quick)' : ''}`);
  printTable(result.rows, result.columns);
  for (const note of result.notes ?? []) console.log(note);
  printGoals(result.goals);
  const file: ResultFile = {
    name: result.name,
    title: result.title,
    date: new Date().toISOString(),
    quick: result.quick,
    machine: machine(),
    durationMs: Math.round(performance.now() - started),
    rows: result.rows,
    goals: result.goals,
    ...(result.data ? { data: result.data } : {}),
  };
  const path = join(RESULTS_DIR, `${result.name}.json`);
  if (result.write === false) {
    console.log(`\npartial run: bench/results/${result.name}.json left alone`);
    return path;
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`\nwrote bench/results/${result.name}.json`);
  return path;
}
