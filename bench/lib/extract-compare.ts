import fs from 'node:fs';
import path from 'node:path';

import { foldOf, FOLDS, PAGE_TYPES, type PageScore } from './folds.ts';
import type { WcxbPage } from './wcxb.ts';

/**
 * `bench:extract --compare DIR`: how many of crawlkit's outputs differ from an earlier `--out DIR`, and the change of
 * F1 and P per type, as the mean over host folds, each fold's change, and the pages that moved.
 */
export interface Comparison {
  dir: string;
  changed: number;
  /** Per type: the change of the folds' mean F1 and P, each fold's ΔF1, and pages up and down by more than 0.001. */
  types: { type: string; f1: number; precision: number; folds: number[]; up: number; down: number }[];
}

export function compare(
  dir: string,
  pages: WcxbPage[],
  perPage: Record<string, PageScore>,
  ownDir: string,
): Comparison {
  const before = JSON.parse(fs.readFileSync(path.join(dir, 'per-page.json'), 'utf8')) as Record<string, PageScore>;
  let changed = 0;
  for (const p of pages) {
    const file = `${p.id}.md`;
    const old = fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : null;
    if (old !== fs.readFileSync(path.join(ownDir, file), 'utf8')) changed++;
  }
  const types: Comparison['types'] = [];
  for (const type of ['all', ...PAGE_TYPES]) {
    const mine = pages.filter((p) => (type === 'all' || p.type === type) && before[p.id] && perPage[p.id]);
    if (mine.length === 0) continue;
    const delta = (k: 'f1' | 'precision', ps: WcxbPage[]): number =>
      ps.reduce((s, p) => s + perPage[p.id]![k] - before[p.id]![k], 0) / (ps.length || 1);
    const byFold = Array.from({ length: FOLDS }, (_, f) => mine.filter((p) => foldOf(p) === f));
    const used = byFold.filter((ps) => ps.length > 0);
    types.push({
      type,
      f1: used.reduce((s, ps) => s + delta('f1', ps), 0) / used.length,
      precision: used.reduce((s, ps) => s + delta('precision', ps), 0) / used.length,
      folds: byFold.map((ps) => delta('f1', ps)),
      up: mine.filter((p) => perPage[p.id]!.f1 - before[p.id]!.f1 > 0.001).length,
      down: mine.filter((p) => perPage[p.id]!.f1 - before[p.id]!.f1 < -0.001).length,
    });
  }
  return { dir, changed, types };
}

export function printComparison(c: Comparison, pages: number): void {
  const d = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(4)}`;
  console.log(`\ncompared with ${c.dir}: ${c.changed} of ${pages} outputs differ`);
  console.log(
    `${'type'.padEnd(14)}  ${'ΔF1'.padStart(8)}  ${'ΔP'.padStart(8)}  ${Array.from({ length: FOLDS }, (_, f) => `ΔF1 f${f}`.padStart(9)).join('')}   up  down`,
  );
  for (const t of c.types) {
    console.log(
      `${t.type.padEnd(14)}  ${d(t.f1).padStart(8)}  ${d(t.precision).padStart(8)}  ${t.folds.map((f) => d(f).padStart(9)).join('')}  ${String(t.up).padStart(3)}  ${String(t.down).padStart(4)}`,
    );
  }
}
