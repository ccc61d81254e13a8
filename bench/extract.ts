// Main-content extraction on the WCXB dev split, side by side with Readability.js + turndown.
//
// Data: WCXB v1.0 by Murrough Foley, CC-BY-4.0 (read from ../shared/datasets/wcxb-dev, never copied here).
//
//   pnpm bench:extract            every page (1,497)
//   pnpm bench:extract --quick    every 100th page (15): a smoke check
//   pnpm bench:extract --no-reference --no-speed --type product    the loop while working on one type (~15 s)
//   options: --no-reference (skip the Readability row), --dataset DIR (the folder holding score-wcxb.mjs),
//            --out DIR (keep crawlkit's outputs there, <id>.md and per-page.json),
//            --compare DIR (an earlier --out: how many outputs differ, and the change of F1 and P per fold and type),
//            --type T[,T] (only the pages of those types; the precision view is then the first type's, and
//            bench/results/extract.json is left alone), --no-speed (skip the two timing passes: parse alone,
//            parse + extractMainContent). `--no-reference --no-speed` over every type is the no-drop check (~1 min).
//
// The main table is per type over host folds (`lib/folds.ts`: five folds by a hash of each page's site): the mean of
// the folds' means and their spread (standard deviation), for F1, P, R and the boilerplate kept (the share of the
// reference's "without" snippets found in the output). A rule is worth keeping when it helps on the folds whose
// pages it was not written against, so every change is read as mean ± spread, never as one figure over the split.
// Besides F1 it prints precision and recall per page type, and the article precision view: the share of output
// tokens outside the reference on article pages, split by the extractor rule that kept them (findMainContent's
// `explain`: `container` is text of the chosen container that no rule questioned, `page` the whole-page last resort).
//
// crawlkit's row runs exactly what scrape() runs for markdown: extractPage(rawHtml, { url, onlyMainContent: true,
// formats: { markdown: true } }) from the built @crawlkit/extractor. Until its markdown converter exists, the row
// falls back to parseHtml → extractMainContent → turndown (the same converter as the reference row).
// Writes <id>.md per row to a temp dir, scores them with score-wcxb.mjs, prints the table and PASS/MISS against the
// target, and writes bench/results/extract.json.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Readability } from '@mozilla/readability';
import * as extractor from '@crawlkit/extractor';
import render from 'dom-serializer';
import { parseDocument } from 'htmlparser2';
import { JSDOM, VirtualConsole } from 'jsdom';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

import { foldTable, formatFoldTable, FOLDS, PAGE_TYPES, type FoldRow, type PageScore } from './lib/folds.ts';
import { compare, printComparison } from './lib/extract-compare.ts';
import { finish, goal, isQuick, withRatios } from './lib/report.ts';
import { precisionView, type PrecisionView } from './lib/precision-view.ts';
import { loadWcxbPages, type WcxbPage } from './lib/wcxb.ts';

const TARGET = { f1: 0.86, without: 0.08 };
const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = isQuick(args);
const withReference = !args.includes('--no-reference');
const datasetArg = args.indexOf('--dataset');
const datasetRoot = path.resolve(
  datasetArg >= 0 ? args[datasetArg + 1]! : (process.env['CK_DATASETS'] ?? path.join(HERE, '../../shared/datasets')),
);
const scorer = path.join(datasetRoot, 'score-wcxb.mjs');
const argValue = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const outDir = argValue('--out');
const compareDir = argValue('--compare');
const onlyTypes = argValue('--type')
  ?.split(',')
  .map((t) => t.trim())
  .filter(Boolean);
const unknownType = onlyTypes?.find((t) => !(PAGE_TYPES as readonly string[]).includes(t));
if (unknownType !== undefined) {
  process.stderr.write(`--type ${unknownType}: not a page type (one of ${PAGE_TYPES.join(', ')})\n`);
  process.exit(2);
}
const withSpeed = !args.includes('--no-speed');
/** The page type of the precision view: the first `--type`, else articles. */
const viewType = onlyTypes?.[0] ?? 'article';
if (!fs.existsSync(scorer)) {
  process.stderr.write(`score-wcxb.mjs not found under ${datasetRoot} (pass --dataset DIR)\n`);
  process.exit(2);
}

interface Summary {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
  with_rate: number;
  without_rate: number;
  per_type: Record<string, { n: number; f1: number; precision: number; recall: number }>;
}

interface RowResult {
  name: string;
  summary: Summary;
  /** Per-page scores, by page id. */
  perPage: Record<string, PageScore>;
  /** Per type over host folds. */
  folds: FoldRow[];
  /** Milliseconds over all pages, parse included. */
  totalMs: number;
  failures: number;
}

function turndownService(): TurndownService {
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.use(gfm);
  td.remove(['script', 'style', 'noscript']);
  return td;
}

const hasMarkdown = typeof (extractor as Record<string, unknown>)['htmlToMarkdown'] === 'function';

/** crawlkit: the scrape markdown path. */
function crawlkitMarkdown(): (page: WcxbPage) => string {
  if (hasMarkdown) {
    return (page) =>
      extractor.extractPage(page.html, { url: page.url, onlyMainContent: true, formats: { markdown: true } })
        .markdown ?? '';
  }
  const td = turndownService();
  return (page) => {
    const doc = extractor.extractMainContent(parseDocument(page.html), { url: page.url });
    return td.turndown(render(doc, { encodeEntities: 'utf8' }));
  };
}

/** Reference: jsdom + Readability.js + turndown. */
function readabilityMarkdown(): (page: WcxbPage) => string {
  const td = turndownService();
  const virtualConsole = new VirtualConsole();
  return (page) => {
    const dom = new JSDOM(page.html, { url: page.url, virtualConsole });
    try {
      const article = new Readability(dom.window.document).parse();
      return article?.content ? td.turndown(article.content) : '';
    } finally {
      dom.window.close();
    }
  };
}

/** Converts `pages` into `dir`; returns [total ms, failures]. */
function convertAll(pages: WcxbPage[], convert: (page: WcxbPage) => string, dir: string): [number, number] {
  let totalMs = 0;
  let failures = 0;
  for (const page of pages) {
    let md = '';
    const t0 = performance.now();
    try {
      md = convert(page);
    } catch {
      failures++;
    }
    totalMs += performance.now() - t0;
    fs.writeFileSync(path.join(dir, `${page.id}.md`), md);
  }
  return [totalMs, failures];
}

/** jsdom leaks across thousands of windows: the reference row runs in child processes of at most CHUNK pages each,
 * one per core at a time (its F1 is the point, not its speed: each page is still timed alone in its child). */
const CHUNK = 150;
const PARALLEL = Math.max(1, os.availableParallelism());

/** Converts `ids` with the reference row in a child process; resolves [ms, failures]. */
function referenceChunk(dir: string, ids: string[]): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [fileURLToPath(import.meta.url), '--reference-worker', dir, ids.join(','), '--dataset', datasetRoot],
      { maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`reference worker failed: ${stderr || error.message}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as [number, number]);
      },
    );
  });
}

async function runRow(
  name: string,
  pages: WcxbPage[],
  convert: ((page: WcxbPage) => string) | 'reference',
): Promise<RowResult> {
  const keep = name === 'crawlkit' ? outDir : undefined;
  if (keep) fs.mkdirSync(keep, { recursive: true });
  const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), `crawlkit-bench-extract-${name.replace(/\W+/g, '-')}-`));
  let totalMs = 0;
  let failures = 0;
  if (convert === 'reference') {
    const size = Math.min(CHUNK, Math.ceil(pages.length / PARALLEL));
    const chunks: string[][] = [];
    for (let i = 0; i < pages.length; i += size) chunks.push(pages.slice(i, i + size).map((p) => p.id));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, chunks.length) }, async () => {
        while (next < chunks.length) {
          const [ms, failed] = await referenceChunk(dir, chunks[next++]!);
          totalMs += ms;
          failures += failed;
        }
      }),
    );
  } else {
    [totalMs, failures] = convertAll(pages, convert, dir);
  }
  const { summary, perPage } = score(dir, pages);
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  console.log(
    `${name}: F1 ${f3(summary.f1)}, without ${pct(summary.without_rate)}, ${(totalMs / pages.length).toFixed(2)} ms/page`,
  );
  return { name, summary, perPage, folds: foldTable(pages, perPage), totalMs, failures };
}

/** Scores a directory of predictions, restricted to the pages that ran (so --quick is not penalised). */
function score(dir: string, pages: WcxbPage[]): { summary: Summary; perPage: Record<string, PageScore> } {
  const perPageFile = path.join(dir, 'per-page.json');
  execFileSync(process.execPath, [scorer, dir, '--json', '--per-page', perPageFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const perPage = JSON.parse(fs.readFileSync(perPageFile, 'utf8')) as Record<string, PageScore>;
  const rows = pages.map((p) => perPage[p.id]!).filter(Boolean);
  const avg = (rs: typeof rows, k: 'precision' | 'recall' | 'f1' | 'with_rate' | 'without_rate'): number =>
    rs.reduce((s, r) => s + r[k], 0) / (rs.length || 1);
  const per_type: Summary['per_type'] = {};
  for (const type of PAGE_TYPES) {
    const rs = rows.filter((r) => r.page_type === type);
    if (rs.length)
      per_type[type] = { n: rs.length, f1: avg(rs, 'f1'), precision: avg(rs, 'precision'), recall: avg(rs, 'recall') };
  }
  const summary = {
    pages: rows.length,
    precision: avg(rows, 'precision'),
    recall: avg(rows, 'recall'),
    f1: avg(rows, 'f1'),
    with_rate: avg(rows, 'with_rate'),
    without_rate: avg(rows, 'without_rate'),
    per_type,
  };
  return { summary, perPage };
}

/** Bare htmlparser2 parse of every page: the floor for any extractor built on it. */
function parseOnlyMs(pages: WcxbPage[]): number {
  const t0 = performance.now();
  for (const page of pages) parseDocument(page.html);
  return performance.now() - t0;
}

/** parse + extractMainContent, without markdown. */
function extractOnlyMs(pages: WcxbPage[]): number {
  const t0 = performance.now();
  for (const page of pages) extractor.extractMainContent(parseDocument(page.html), { url: page.url });
  return performance.now() - t0;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const f3 = (x: number): string => x.toFixed(3);

function printRows(rows: RowResult[], pages: number): void {
  const w = Math.max(...rows.map((r) => r.name.length));
  console.log(`\nWCXB dev (${pages} pages${quick ? ', --quick sample' : ''})`);
  console.log(`${'row'.padEnd(w)}      P      R     F1   with  without   ms/page`);
  for (const r of rows) {
    const s = r.summary;
    console.log(
      `${r.name.padEnd(w)}  ${f3(s.precision)}  ${f3(s.recall)}  ${f3(s.f1)}  ${pct(s.with_rate).padStart(5)}  ${pct(s.without_rate).padStart(7)}  ${(r.totalMs / pages).toFixed(2).padStart(8)}${r.failures ? `  (${r.failures} failed)` : ''}`,
    );
  }
  const types = Object.keys(rows[0]!.summary.per_type);
  const cw = rows.map((r) => Math.max(19, r.name.length));
  console.log(
    `\nF1 (P / R) by page type\n${'type'.padEnd(14)}    n  ${rows.map((r, i) => r.name.padStart(cw[i]!)).join('  ')}`,
  );
  for (const t of types) {
    const cells = rows.map((r, i) => {
      const v = r.summary.per_type[t];
      return (v ? `${f3(v.f1)} (${f3(v.precision)} / ${f3(v.recall)})` : '-').padStart(cw[i]!);
    });
    console.log(`${t.padEnd(14)} ${String(rows[0]!.summary.per_type[t]!.n).padStart(4)}  ${cells.join('  ')}`);
  }
}

function printFolds(rows: RowResult[]): void {
  for (const r of rows) {
    console.log(
      `\n${formatFoldTable(r.folds, `${r.name}: per type over ${FOLDS} host folds, mean ± spread (sd) of the folds' means`)}`,
    );
  }
}

/** How crawlkit's outputs differ from an earlier `--out` directory: outputs changed, ΔF1 and ΔP per fold and type. */
function printPrecisionView(view: PrecisionView, row: RowResult): void {
  const scores = row.summary.per_type[viewType];
  console.log(
    `\n${viewType} precision view (${view.pages} pages): P ${f3(scores?.precision ?? 0)}, R ${f3(scores?.recall ?? 0)}; share of output tokens outside the reference ${pct(view.outside)} (main-content text; the scorer's 1 - P on markdown: ${pct(1 - (scores?.precision ?? 0))})`,
  );
  console.log(`${'kept by'.padEnd(14)}  pages  outside   tokens`);
  for (const r of view.rules) {
    console.log(
      `${r.rule.padEnd(14)}  ${String(r.pages).padStart(5)}  ${pct(r.outside).padStart(7)}  ${String(r.tokens).padStart(7)}`,
    );
  }
}

const workerArg = args.indexOf('--reference-worker');
if (workerArg >= 0) {
  // child process: convert the given ids with the reference row, print [ms, failures]
  const ids = new Set(args[workerArg + 2]!.split(','));
  const mine = loadWcxbPages(path.join(datasetRoot, 'wcxb-dev'), ids);
  console.log(JSON.stringify(convertAll(mine, readabilityMarkdown(), args[workerArg + 1]!)));
  process.exit(0);
}

/** --quick scores every QUICK_EVERY-th page (15 of 1,497): a smoke check of both rows, not an F1 figure. */
const QUICK_EVERY = 100;
const pages = loadWcxbPages(
  path.join(datasetRoot, 'wcxb-dev'),
  onlyTypes ? { types: onlyTypes } : { every: quick ? QUICK_EVERY : 1 },
);
console.log(
  `crawlkit path: ${hasMarkdown ? 'extractPage (scrape markdown path)' : 'parse → extractMainContent → turndown (htmlToMarkdown not built yet)'}`,
);

const rows: RowResult[] = [await runRow('crawlkit', pages, crawlkitMarkdown())];
if (withReference) rows.push(await runRow('readability+turndown', pages, 'reference'));
const parseMs = withSpeed ? parseOnlyMs(pages) : NaN;
const extractMs = withSpeed ? extractOnlyMs(pages) : NaN;
printRows(rows, pages.length);
printFolds(rows);
const comparison = compareDir && outDir ? compare(compareDir, pages, rows[0]!.perPage, outDir) : undefined;
if (compareDir && !outDir) console.log("\n--compare needs --out DIR (crawlkit's outputs of this run)");
if (comparison) printComparison(comparison, pages.length);
const view = precisionView(pages, viewType);
printPrecisionView(view, rows[0]!);

const ck = rows[0]!;
if (withSpeed)
  console.log(
    `\nspeed (ms/page): htmlparser2 parse ${(parseMs / pages.length).toFixed(2)}, parse+extractMainContent ${(extractMs / pages.length).toFixed(2)} (${(extractMs / parseMs).toFixed(2)}x parse), full crawlkit path ${(ck.totalMs / pages.length).toFixed(2)}${rows[1] ? `, readability+turndown ${(rows[1].totalMs / pages.length).toFixed(2)} (crawlkit ${(rows[1].totalMs / ck.totalMs).toFixed(1)}x faster)` : ''}`,
  );
const pass = ck.summary.f1 >= TARGET.f1 && ck.summary.without_rate <= TARGET.without;

finish({
  name: 'extract',
  title: `extract: main content of ${pages.length} WCXB dev pages${onlyTypes ? ` (${onlyTypes.join(', ')} only)` : quick ? ` (every ${QUICK_EVERY}th)` : ''}, word-level F1 (score-wcxb.mjs)`,
  quick,
  write: !onlyTypes,
  rows: withRatios(
    rows.map((r) => ({
      row: r.name,
      P: Math.round(r.summary.precision * 1000) / 1000,
      R: Math.round(r.summary.recall * 1000) / 1000,
      F1: Math.round(r.summary.f1 * 1000) / 1000,
      'with %': Math.round(r.summary.with_rate * 1000) / 10,
      'without %': Math.round(r.summary.without_rate * 1000) / 10,
      'ms/page': Math.round((r.totalMs / pages.length) * 100) / 100,
      failed: r.failures,
    })),
    'ms/page',
    'crawlkit',
    'row',
    'time vs crawlkit',
  ),
  goals: [
    goal(
      'extract.f1',
      `extract: F1 >= ${TARGET.f1} with without-snippets <= ${pct(TARGET.without)} (extractor target)`,
      pass ? 1 : 0,
      1,
      `F1 ${f3(ck.summary.f1)}, without ${pct(ck.summary.without_rate)}${rows[1] ? ` (Readability+turndown F1 ${f3(rows[1].summary.f1)})` : ''}`,
    ),
  ],
  data: {
    attribution: 'WCXB v1.0 by Murrough Foley, CC-BY-4.0',
    pages: pages.length,
    crawlkitPath: hasMarkdown ? 'extractPage' : 'extractMainContent+turndown',
    target: TARGET,
    pass,
    speedMsPerPage: {
      ...(withSpeed ? { parse: parseMs / pages.length, parseAndExtract: extractMs / pages.length } : {}),
      crawlkit: ck.totalMs / pages.length,
      ...(rows[1] ? { reference: rows[1].totalMs / pages.length } : {}),
    },
    rows: rows.map((r) => ({ name: r.name, failures: r.failures, ...r.summary, folds: r.folds })),
    ...(comparison ? { comparison } : {}),
    articlePrecisionView: view,
  },
});
