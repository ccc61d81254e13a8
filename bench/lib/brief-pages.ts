// The authored held-out-shaped pages (issue 42, eighth pass): news briefs, paywall stubs and pages holding little
// story beside rails of other stories, teaser grids, network menus, deal rails and polls, and controls that must not
// change (a long story, a listing, a listicle, a live blog, a forum thread, a "See also" list, a brief above comments).
// The ninth pass added deal rails, polls, subscribe boxes and newsletter boxes in both halves (d09-d11, j09-j11), and
// their controls (a deals roundup, a survey page, a newsletter's own sign-up page, a long story about subscriptions).
// The tenth pass added pages whose HTML holds little or no story, where no block wins and the whole page comes back
// (d14, d15, j15, j19; j14 a stub of that shape the walk still finds), pages with a `<base href>` (d16, j16), and their
// controls (a directory and a minutes index that are their link lists, a recipe with a `<base>` and no rails).
// Pass articlefit added cards of the site's other pages after a brief (d18, j20: services, a podcast, a newsletter) and
// a control (d19: a short post whose announced cards of its own guides are its content).
// Each page is `<name>.html` with its expected main content `<name>.md` under
// packages/extractor/src/content/__fixtures__/briefs/; `d*` pages are the design half (rules are written against
// them), `j*` pages the judging half (of other templates, never looked at while writing a rule).
//
// Scored with WCXB's own method (score-wcxb.mjs: its markdown stripping and word-level P/R/F1), per page and per half.
//
//   pnpm exec node bench/lib/brief-pages.ts                  this build (packages/extractor/dist)
//   pnpm exec node bench/lib/brief-pages.ts --base FILE      and a baseline build's dist/index.js beside it
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const BRIEFS_DIR = path.join(HERE, '../../packages/extractor/src/content/__fixtures__/briefs');

/** One authored page: its HTML, its address (the canonical link) and its expected main content in markdown. */
export interface BriefPage {
  name: string;
  half: 'design' | 'judge';
  url: string;
  html: string;
  reference: string;
}

export interface BriefScore {
  name: string;
  half: BriefPage['half'];
  precision: number;
  recall: number;
  f1: number;
}

/** Extracts the main content of a page as markdown (`extractPage` of some build). */
export type Extract = (html: string, url: string) => string;

export function loadBriefPages(dir = BRIEFS_DIR): BriefPage[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -'.html'.length);
      const html = fs.readFileSync(path.join(dir, f), 'utf8');
      const url = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
      if (!url) throw new Error(`${f}: no canonical link (the page's address)`);
      const reference = fs.readFileSync(path.join(dir, `${name}.md`), 'utf8');
      return { name, half: name.startsWith('d') ? 'design' : 'judge', url, html, reference };
    });
}

/** score-wcxb.mjs in the datasets folder (CK_DATASETS, or ../shared/datasets beside the repository). */
export function scorerPath(root = process.env['CK_DATASETS'] ?? path.join(HERE, '../../../shared/datasets')): string {
  const file = path.join(root, 'score-wcxb.mjs');
  if (!fs.existsSync(file)) throw new Error(`score-wcxb.mjs not found under ${root} (set CK_DATASETS)`);
  return file;
}

/**
 * Scores `extract` on `pages` with score-wcxb.mjs itself: the references are written as a WCXB ground-truth folder
 * and the outputs as its predictions, so the markdown stripping and the word-level P/R/F1 are the benchmark's own.
 */
export function scoreBriefPages(pages: BriefPage[], extract: Extract, scorer = scorerPath()): BriefScore[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-briefs-'));
  try {
    fs.mkdirSync(path.join(dir, 'root', 'ground-truth'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'out'));
    for (const p of pages) {
      const truth = { url: p.url, ground_truth: { main_content: p.reference, with: [], without: [] } };
      fs.writeFileSync(path.join(dir, 'root', 'ground-truth', `${p.name}.json`), JSON.stringify(truth));
      fs.writeFileSync(path.join(dir, 'out', `${p.name}.md`), extract(p.html, p.url));
    }
    const perPageFile = path.join(dir, 'per-page.json');
    execFileSync(process.execPath, [
      scorer,
      path.join(dir, 'out'),
      '--root',
      path.join(dir, 'root'),
      '--json',
      '--per-page',
      perPageFile,
    ]);
    const perPage = JSON.parse(fs.readFileSync(perPageFile, 'utf8')) as Record<
      string,
      Omit<BriefScore, 'name' | 'half'>
    >;
    return pages.map((p) => {
      const { precision, recall, f1 } = perPage[p.name]!;
      return { name: p.name, half: p.half, precision, recall, f1 };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Mean P, R and F1 of `scores`. */
export function meanScore(scores: BriefScore[]): { precision: number; recall: number; f1: number } {
  const n = scores.length || 1;
  const sum = (k: 'precision' | 'recall' | 'f1'): number => scores.reduce((s, x) => s + x[k], 0) / n;
  return { precision: sum('precision'), recall: sum('recall'), f1: sum('f1') };
}

async function extractorAt(file: string): Promise<Extract> {
  const mod = (await import(pathToFileURL(path.resolve(file)).href)) as {
    extractPage: (html: string, o: object) => { markdown?: string };
  };
  return (html, url) =>
    mod.extractPage(html, { url, onlyMainContent: true, formats: { markdown: true } }).markdown ?? '';
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const baseAt = args.indexOf('--base');
  const pages = loadBriefPages();
  const runs: { name: string; scores: BriefScore[] }[] = [];
  if (baseAt >= 0) runs.push({ name: 'base', scores: scoreBriefPages(pages, await extractorAt(args[baseAt + 1]!)) });
  const own = path.join(HERE, '../../packages/extractor/dist/index.js');
  runs.push({ name: 'this', scores: scoreBriefPages(pages, await extractorAt(own)) });
  const f = (x: number): string => x.toFixed(3);
  const cell = (s: { precision: number; recall: number; f1: number }): string =>
    `${f(s.precision)} ${f(s.recall)} ${f(s.f1)}`.padEnd(19);
  console.log(`${'page'.padEnd(24)}${runs.map((r) => `${r.name} P R F1`.padEnd(19)).join(' ')}`);
  pages.forEach((p, i) => console.log(`${p.name.padEnd(24)}${runs.map((r) => cell(r.scores[i]!)).join(' ')}`));
  for (const half of ['design', 'judge'] as const) {
    const row = runs.map((r) => cell(meanScore(r.scores.filter((s) => s.half === half))));
    console.log(`${`${half} half (mean)`.padEnd(24)}${row.join(' ')}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
