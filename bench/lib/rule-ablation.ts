// Each main-content rule's weight over the host folds (issue 42, twelfth pass): the extractor with one rule switched
// off at a time, run in process with `extractPage` over the WCXB dev split (WCXB v1.0 by Murrough Foley, CC-BY-4.0,
// read from the shared datasets folder, never copied), scored with score-wcxb.mjs's own functions (its markdown
// stripping, word-level P/R/F1 and "without" snippets), and reported per host fold (`folds.ts`) and per type.
//
// A rule is switched off through `switchOffRules` of the build's `content/trace.js`: a test-only injection point that
// the package's index does not export (no scrape option reaches it); the drop rules are refused in `Doomed.drop` or at
// the walk's decision (so the walk goes on into the block, as it would without the rule), the keep rules and the
// container steps where they decide.
//
//   pnpm exec node bench/lib/rule-ablation.ts                 every rule, the table as markdown
//   options: --rules a,b,c (only those), --every N (every Nth page), --json FILE (every figure),
//            --dist DIR (another build's packages/extractor/dist), --baseline-only (the figures with no rule off),
//            --from FILE (print the table of an earlier --json without running), --pages (list the pages that move),
//            --briefs (only the authored pages of `brief-pages.ts`: each rule off, ΔF1 of their design and judging halves)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { loadBriefPages, meanScore, scoreBriefPages, type BriefScore } from './brief-pages.ts';
import { foldOf, foldTable, FOLDS, PAGE_TYPES, type FoldRow, type PageScore } from './folds.ts';
import { loadWcxbPages, type WcxbPage } from './wcxb.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
/** The value after `name` among this process's arguments. */
export const argValue = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
/** The shared datasets folder (`CK_DATASETS`, or beside the repository). */
export const datasets = process.env['CK_DATASETS'] ?? path.join(HERE, '../../../shared/datasets');
/** The extractor build to run: `--dist DIR` (another build's packages/extractor/dist), or this repository's. */
export const dist = path.resolve(argValue('--dist') ?? path.join(HERE, '../../packages/extractor/dist'));

/** A page's output moves when its F1 changes by more than this. */
const MOVE = 0.001;

export interface Scorer {
  stripMarkdown(md: string): string;
  wordF1(predicted: string, reference: string): [number, number, number];
  snippetCheck(text: string, snippets: string[]): number;
  loadWcxbGroundTruth(
    root: string,
  ): Record<string, { main_content: string; with: string[]; without: string[]; page_type: string }>;
}

/** score-wcxb.mjs's functions: the script without its closing `main()` call, imported from a temporary copy. */
export async function loadScorer(): Promise<Scorer> {
  const source = fs.readFileSync(path.join(datasets, 'score-wcxb.mjs'), 'utf8');
  const body = source.replace(/\nmain\(\);\s*$/, '\n');
  if (body === source) throw new Error('score-wcxb.mjs: its closing main() call was not found');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-ablation-'));
  const file = path.join(dir, 'score-wcxb-functions.mjs');
  fs.writeFileSync(file, body);
  try {
    return (await import(pathToFileURL(file).href)) as Scorer;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Extractor {
  extractPage(html: string, o: object): { markdown?: string };
}
interface TraceModule {
  DROP_RULES: Record<string, unknown>;
  switchOffRules(rules: Iterable<string>): void;
}

/** Rules that are not a judgment of the page's text: never-readable tags, the container choice, the user's options. */
const NOT_ABLATED = new Set(['not-text', 'outside-container', 'not-included', 'boilerplate', 'exclude-tags']);
/** Keep rules and container steps (trace.ts's `KeepRule` and `Hook`), besides `DROP_RULES`. */
const KEEP_AND_HOOKS = [
  'large-chrome',
  'menu-needed',
  'discussion',
  'index',
  'large-section',
  'teaser-grid-kept',
  'item-grid',
  'lede',
  'list-heading',
  'story-shell',
  'title-block',
  'byline',
  'hidden-page',
  'main-element',
  'item-body',
  'dense-run',
  'trailing-faq',
];

interface PageRun {
  score: PageScore;
  markdown: string;
}

/** A page's main content as markdown, as `pnpm bench:extract` scores it ('' when the extractor throws). */
export function mainMarkdown(extractor: Pick<Extractor, 'extractPage'>, page: Pick<WcxbPage, 'html' | 'url'>): string {
  try {
    return (
      extractor.extractPage(page.html, { url: page.url, onlyMainContent: true, formats: { markdown: true } })
        .markdown ?? ''
    );
  } catch {
    return '';
  }
}

function runAll(
  pages: readonly WcxbPage[],
  extractor: Extractor,
  scorer: Scorer,
  gt: ReturnType<Scorer['loadWcxbGroundTruth']>,
): PageRun[] {
  return pages.map((page) => {
    const markdown = mainMarkdown(extractor, page);
    const g = gt[page.id]!;
    const text = scorer.stripMarkdown(markdown);
    const [precision, recall, f1] = scorer.wordF1(text, g.main_content);
    const score: PageScore = {
      page_type: g.page_type,
      precision,
      recall,
      f1,
      with_rate: scorer.snippetCheck(text, g.with),
      without_rate: scorer.snippetCheck(text, g.without),
    };
    return { score, markdown };
  });
}

/** One type's change when the rule is off: ΔF1 per fold, its mean, ΔP and Δ boilerplate kept, pages moved. */
export interface TypeEffect {
  type: string;
  dF1: number[];
  dF1Mean: number;
  dP: number;
  dWithout: number;
  up: number;
  down: number;
}

/** A page whose F1 moves by more than `MOVE` when the rule is off. */
export interface MovedPage {
  id: string;
  fold: number;
  type: string;
  dF1: number;
}

export interface RuleEffect {
  rule: string;
  changed: number;
  types: TypeEffect[];
  moved: MovedPage[];
}

function effect(
  rule: string,
  pages: readonly WcxbPage[],
  base: PageRun[],
  baseRows: FoldRow[],
  off: PageRun[],
): RuleEffect {
  const scores: Record<string, PageScore> = {};
  pages.forEach((p, i) => (scores[p.id] = off[i]!.score));
  const rows = foldTable(pages, scores);
  let changed = 0;
  const moved: MovedPage[] = [];
  pages.forEach((p, i) => {
    changed += off[i]!.markdown === base[i]!.markdown ? 0 : 1;
    const dF1 = off[i]!.score.f1 - base[i]!.score.f1;
    if (Math.abs(dF1) > MOVE) moved.push({ id: p.id, fold: foldOf(p), type: p.type, dF1 });
  });
  const types = rows.map((row): TypeEffect => {
    const b = baseRows.find((r) => r.type === row.type)!;
    const dF1 = row.metrics.f1.folds.map((v, i) => v - b.metrics.f1.folds[i]!);
    let up = 0;
    let down = 0;
    pages.forEach((p, i) => {
      if (row.type !== 'all' && p.type !== row.type) return;
      const d = off[i]!.score.f1 - base[i]!.score.f1;
      if (d > MOVE) up++;
      else if (d < -MOVE) down++;
    });
    return {
      type: row.type,
      dF1,
      dF1Mean: row.metrics.f1.mean - b.metrics.f1.mean,
      dP: row.metrics.precision.mean - b.metrics.precision.mean,
      dWithout: row.metrics.without_rate.mean - b.metrics.without_rate.mean,
      up,
      down,
    };
  });
  return { rule, changed, types, moved };
}

const sign = (x: number, digits = 4): string =>
  Math.abs(x) < 0.5 * 10 ** -digits ? '0' : (x > 0 ? '+' : '') + x.toFixed(digits);

/** Folds where removing the rule lowers F1 (it helps) and raises it (it costs), past a hundred-thousandth. */
function foldCount(t: TypeEffect): string {
  return `${t.dF1.filter((d) => d < -1e-5).length}/${t.dF1.filter((d) => d > 1e-5).length}`;
}

/** The table row of a rule: ΔF1 over all pages, folds where the rule helps, each type that moves, pages changed. */
function formatRule(e: RuleEffect): string {
  const all = e.types.find((t) => t.type === 'all')!;
  const moved = e.types
    .filter((t) => t.type !== 'all' && (t.up || t.down || Math.abs(t.dF1Mean) >= 0.00005))
    .map((t) => `${t.type} ${sign(t.dF1Mean)} (${foldCount(t)}, ${t.up}↑ ${t.down}↓)`)
    .join('; ');
  return `| ${e.rule} | ${sign(all.dF1Mean)} | ${all.dF1.map((d) => sign(d)).join(' ')} | ${foldCount(all)} | ${sign(all.dP)} | ${sign(all.dWithout * 100, 2)} | ${e.changed} | ${all.up} / ${all.down} | ${moved || '–'} |`;
}

const HEADER = [
  '| rule off | ΔF1 all | ΔF1 per fold (f0 … f4) | folds helps/costs | ΔP all | Δ boilerplate kept (points) | outputs changed | pages up / down | by type: ΔF1 mean (folds helps/costs, pages up↑ down↓) |',
  '| --- | ---: | --- | :-: | ---: | ---: | ---: | :-: | --- |',
];

/** The authored pages (`brief-pages.ts`) with each rule off: ΔF1 of the design and judging halves, pages moved. */
function briefs(extractor: Extractor, trace: TraceModule, rules: string[]): void {
  const pages = loadBriefPages();
  const extract = (html: string, url: string): string =>
    extractor.extractPage(html, { url, onlyMainContent: true, formats: { markdown: true } }).markdown ?? '';
  const half = (scores: BriefScore[], h: BriefScore['half']): number =>
    meanScore(scores.filter((x) => x.half === h)).f1;
  trace.switchOffRules([]);
  const base = scoreBriefPages(pages, extract);
  console.log(`| rule off | authored design ΔF1 | authored judging ΔF1 | pages moved |\n| --- | ---: | ---: | --- |`);
  for (const rule of rules) {
    trace.switchOffRules([rule]);
    const off = scoreBriefPages(pages, extract);
    const moved = off
      .map((x, i) => ({ name: x.name, d: x.f1 - base[i]!.f1 }))
      .filter((x) => Math.abs(x.d) > MOVE)
      .map((x) => `${x.name} ${sign(x.d, 3)}`)
      .join(', ');
    const dd = half(off, 'design') - half(base, 'design');
    const dj = half(off, 'judge') - half(base, 'judge');
    console.log(`| ${rule} | ${sign(dd)} | ${sign(dj)} | ${moved || '–'} |`);
  }
  trace.switchOffRules([]);
}

async function main(): Promise<void> {
  const from = argValue('--from');
  if (from) {
    // the table again from an earlier --json, without running
    const { effects } = JSON.parse(fs.readFileSync(from, 'utf8')) as { effects: RuleEffect[] };
    console.log([...HEADER, ...effects.map(formatRule)].join('\n'));
    return;
  }
  const extractor = (await import(pathToFileURL(path.join(dist, 'index.js')).href)) as Extractor;
  const trace = (await import(pathToFileURL(path.join(dist, 'content/trace.js')).href)) as TraceModule;
  const all = [...Object.keys(trace.DROP_RULES).filter((r) => !NOT_ABLATED.has(r)), ...KEEP_AND_HOOKS];
  const only = argValue('--rules');
  const rules = only ? only.split(',') : all;
  for (const r of rules) if (!all.includes(r)) throw new Error(`unknown rule ${r}`);
  if (args.includes('--briefs')) return briefs(extractor, trace, rules);
  const every = Number(argValue('--every') ?? 1);
  const pages = loadWcxbPages(path.join(datasets, 'wcxb-dev'), { every });
  const scorer = await loadScorer();
  const gt = scorer.loadWcxbGroundTruth(path.join(datasets, 'wcxb-dev'));

  trace.switchOffRules([]);
  const t0 = performance.now();
  const base = runAll(pages, extractor, scorer, gt);
  const baseScores: Record<string, PageScore> = {};
  pages.forEach((p, i) => (baseScores[p.id] = base[i]!.score));
  const baseRows = foldTable(pages, baseScores);
  console.log(`${pages.length} pages, ${((performance.now() - t0) / 1000).toFixed(1)} s a run; no rule off:`);
  for (const r of baseRows) {
    const m = r.metrics;
    console.log(
      `  ${r.type.padEnd(14)} F1 ${m.f1.mean.toFixed(3)} ± ${m.f1.sd.toFixed(3)}  P ${m.precision.mean.toFixed(3)}  R ${m.recall.mean.toFixed(3)}  boilerplate kept ${(m.without_rate.mean * 100).toFixed(1)}%  folds ${m.f1.folds.map((v) => v.toFixed(4)).join(' ')}`,
    );
  }
  if (args.includes('--baseline-only')) return;

  const effects: RuleEffect[] = [];
  console.log(`\n${HEADER.join('\n')}`);
  for (const rule of rules) {
    trace.switchOffRules([rule]);
    const off = runAll(pages, extractor, scorer, gt);
    const e = effect(rule, pages, base, baseRows, off);
    effects.push(e);
    console.log(formatRule(e));
  }
  if (args.includes('--pages')) {
    for (const e of effects) {
      const list = e.moved.map((m) => `${m.id} f${m.fold} ${m.type} ${sign(m.dF1, 3)}`).join(', ');
      console.log(`\n${e.rule}: ${list || 'no page moves'}`);
    }
  }
  trace.switchOffRules([]);
  const json = argValue('--json');
  if (json) {
    const perType = Object.fromEntries(PAGE_TYPES.map((t) => [t, pages.filter((p) => p.type === t).length]));
    const folds = Array.from({ length: FOLDS }, (_, f) => pages.filter((p) => foldOf(p) === f).length);
    fs.writeFileSync(json, `${JSON.stringify({ pages: pages.length, perType, folds, baseRows, effects }, null, 1)}\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
