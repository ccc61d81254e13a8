// Host folds of the WCXB dev split: every page of a site lands in the same fold, so a rule written while looking at
// some folds is measured on sites it never saw. Deterministic: a hash of the site's registrable domain.
import type { WcxbPage } from './wcxb.ts';

/** Folds the dev split is cut into. */
export const FOLDS = 5;

/** Second-level labels under a two-letter country code that are not a site (`co.uk`, `com.au`). */
const PUBLIC_SECOND_LEVEL: ReadonlySet<string> = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or']);

/**
 * The site a page belongs to: its host's registrable domain, approximated (`blog.example.co.uk` → `example.co.uk`),
 * so that a site's subdomains share a fold. Pages without a URL are each their own site.
 */
export function siteOf(page: Pick<WcxbPage, 'id' | 'url'>): string {
  let host: string;
  try {
    host = new URL(page.url).hostname.toLowerCase();
  } catch {
    return `page:${page.id}`;
  }
  if (!host || host.endsWith('.invalid')) return `page:${page.id}`;
  const labels = host.split('.');
  const n = labels.length;
  if (n <= 2) return host;
  const keep = labels[n - 1]!.length === 2 && PUBLIC_SECOND_LEVEL.has(labels[n - 2]!) ? 3 : 2;
  return labels.slice(n - keep).join('.');
}

/** FNV-1a, 32 bits: a stable hash of a string. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The fold (0 to FOLDS - 1) of a page: a hash of its site. */
export function foldOf(page: Pick<WcxbPage, 'id' | 'url'>): number {
  return fnv1a(siteOf(page)) % FOLDS;
}

/** Per-page scores, as score-wcxb.mjs writes them with `--per-page`. */
export interface PageScore {
  page_type: string;
  precision: number;
  recall: number;
  f1: number;
  with_rate: number;
  without_rate: number;
}

export const PAGE_TYPES = ['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service'] as const;

const METRICS = ['f1', 'precision', 'recall', 'without_rate'] as const;
export type Metric = (typeof METRICS)[number];

/** A metric over folds: the mean of the folds' means, their standard deviation, and each fold's value. */
export interface Spread {
  mean: number;
  sd: number;
  folds: number[];
}

/** A page type (or `all`) over folds. */
export interface FoldRow {
  type: string;
  /** Pages of the type in each fold. */
  pages: number[];
  metrics: Record<Metric, Spread>;
}

function spread(values: number[]): Spread {
  const mean = values.reduce((s, v) => s + v, 0) / (values.length || 1);
  const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length || 1));
  return { mean, sd, folds: values };
}

/**
 * Per type and overall: each metric's mean over the pages of each fold, then the mean and spread of those fold
 * means. `scores` holds the pages that ran (a `--quick` sample leaves folds or types thin).
 */
export function foldTable(pages: readonly WcxbPage[], scores: Readonly<Record<string, PageScore>>): FoldRow[] {
  const rows: FoldRow[] = [];
  for (const type of ['all', ...PAGE_TYPES]) {
    const byFold: PageScore[][] = Array.from({ length: FOLDS }, () => []);
    for (const page of pages) {
      const s = scores[page.id];
      if (s && (type === 'all' || s.page_type === type)) byFold[foldOf(page)]!.push(s);
    }
    if (byFold.every((f) => f.length === 0)) continue;
    const used = byFold.filter((f) => f.length > 0);
    const metrics = {} as Record<Metric, Spread>;
    for (const k of METRICS) metrics[k] = spread(used.map((f) => f.reduce((s, r) => s + r[k], 0) / f.length));
    rows.push({ type, pages: byFold.map((f) => f.length), metrics });
  }
  return rows;
}

const f3 = (x: number): string => x.toFixed(3);

/** The fold table as text: `mean ± sd` of F1, P, R and the boilerplate-kept share per type. */
export function formatFoldTable(rows: readonly FoldRow[], title: string): string {
  const cell = (s: Spread): string => `${f3(s.mean)} ± ${f3(s.sd)}`;
  const lines = [
    title,
    `${'type'.padEnd(14)} ${'pages'.padStart(5)}  ${'F1'.padEnd(13)}  ${'P'.padEnd(13)}  ${'R'.padEnd(13)}  boilerplate kept`,
  ];
  for (const r of rows) {
    const n = r.pages.reduce((s, v) => s + v, 0);
    const m = r.metrics;
    lines.push(
      `${r.type.padEnd(14)} ${String(n).padStart(5)}  ${cell(m.f1)}  ${cell(m.precision)}  ${cell(m.recall)}  ${(m.without_rate.mean * 100).toFixed(1)}% ± ${(m.without_rate.sd * 100).toFixed(1)}`,
    );
  }
  return lines.join('\n');
}
