// The summary of a `bench/run.ts` run: every goal a benchmark was expected to report, with PASS/MISS when it did and
// the reason when it did not (crashed, timed out, no result file), so that a missing figure is never silently absent.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type { Goal, ResultFile } from './report.ts';

export interface ExpectedGoal {
  id: string;
  /** Wording printed when the benchmark did not report this goal. */
  goal: string;
  /** Whether it is one of issue 11's goals (they are printed first). */
  issue: boolean;
}

export type Status = 'ok' | 'not written yet' | 'failed' | 'timed out' | 'no result file';

export interface Outcome {
  benchmark: { name: string; goals: readonly ExpectedGoal[] };
  status: Status;
  seconds: number;
  result?: ResultFile;
  /** Why the result could not be read. */
  note?: string;
}

export interface SummaryGoal extends Goal {
  benchmark: string;
  issue: boolean;
}

/** Reads `<dir>/<name>.json` if it was written at or after `since` (ms since the epoch). */
export function readResult(dir: string, name: string, since: number): { result?: ResultFile; note?: string } {
  const path = join(dir, `${name}.json`);
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

/**
 * Every expected goal of every outcome (reported, or `pass: null` with the reason in `value`), then the goals a
 * benchmark reported without being expected to; issue 11's goals first, each group in benchmark order.
 */
export function collectGoals(outcomes: readonly Outcome[]): SummaryGoal[] {
  const goals: SummaryGoal[] = [];
  for (const o of outcomes) {
    const reported = o.result?.goals ?? [];
    const expected = o.benchmark.goals;
    const why = o.status === 'ok' ? (o.note ?? 'not reported') : o.status;
    for (const e of expected) {
      const g = reported.find((r) => r.id === e.id) ?? { id: e.id, goal: e.goal, value: `(${why})`, pass: null };
      goals.push({ benchmark: o.benchmark.name, issue: e.issue, ...g });
    }
    for (const g of reported)
      if (!expected.some((e) => e.id === g.id)) goals.push({ benchmark: o.benchmark.name, issue: false, ...g });
  }
  return [...goals.filter((g) => g.issue), ...goals.filter((g) => !g.issue)];
}
