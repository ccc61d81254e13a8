// The page's title heading (issue 42, fourteenth pass): on how many WCXB dev pages the reviewed main content keeps the
// page's `<h1>`, and on how many crawlkit's output keeps it, by page type. Reads the outputs of an earlier
// `pnpm bench:extract --out DIR` (`<id>.md`); a second `--out` dir given with `--compare` counts the pages where that
// run added the title, and how many of them the reference keeps it on. Data: WCXB v1.0 by Murrough Foley, CC-BY-4.0
// (read from the shared datasets folder, never copied).
//
//   pnpm exec node bench/lib/title-survey.ts --out DIR [--compare DIR2] [--dataset DIR]
//
// The title heading is the `<h1>` whose words hold the reviewed title's (or are held by it), else the page's first
// `<h1>` with text. A text keeps it when the heading's lower-cased words occur in it in a row; "opens with" when they
// occur within its first words (the heading's length plus 40 characters). Counting words in a row over-counts keeping
// a short heading ("Quick start", "Trails") that the text uses elsewhere: read "keeps" as an upper bound.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseDocument } from 'htmlparser2';

import { FOLDS, foldOf, PAGE_TYPES } from './folds.ts';
import { loadWcxbPages } from './wcxb.ts';

const args = process.argv.slice(2);
const argValue = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const HERE = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(
  path.resolve(argValue('--dataset') ?? process.env['CK_DATASETS'] ?? path.join(HERE, '../../../shared/datasets')),
  'wcxb-dev',
);
const outDir = argValue('--out');
const addedDir = argValue('--compare');
if (!outDir) {
  process.stderr.write('usage: title-survey.ts --out DIR [--compare DIR2] [--dataset DIR]\n');
  process.exit(2);
}

/** The few domhandler fields the survey reads. */
interface DomNode {
  type: string;
  data?: string;
  name?: string;
  children?: DomNode[];
}

const SKIP = new Set(['script', 'style', 'template', 'noscript']);

/** Lower-cased words joined by one space: the form in which a heading is looked for in a text. */
const words = (text: string): string => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

function textOf(node: DomNode): string {
  if (node.type === 'text') return node.data ?? '';
  if (node.name && SKIP.has(node.name)) return '';
  return (node.children ?? []).map(textOf).join(' ');
}

/** The words of every `<h1>` of the page with text, in document order. */
function headings(node: DomNode, out: string[] = []): string[] {
  if (node.name === 'h1') {
    const w = words(textOf(node));
    if (w.length >= 3) out.push(w);
    return out;
  }
  if (node.name && SKIP.has(node.name)) return out;
  for (const c of node.children ?? []) headings(c, out);
  return out;
}

const read = (dir: string, id: string): string => {
  const file = path.join(dir, `${id}.md`);
  return fs.existsSync(file) ? words(fs.readFileSync(file, 'utf8')) : '';
};

interface Row {
  pages: number;
  titled: number;
  refKeeps: number;
  refOpens: number;
  ckKeeps: number;
  /** The reference keeps the title, crawlkit drops it. */
  ckDrops: number;
  /** crawlkit keeps it, the reference does not. */
  ckAdds: number;
  /** With `--compare`: pages where the second run added the title, and how many of them the reference keeps it on. */
  added: number;
  addedKept: number;
  /** Per fold: pages with a title, and those whose reference keeps it. */
  folds: { titled: number; refKeeps: number }[];
}

const rows = new Map<string, Row>();
const rowOf = (type: string): Row => {
  let r = rows.get(type);
  if (!r) {
    const folds = Array.from({ length: FOLDS }, () => ({ titled: 0, refKeeps: 0 }));
    r = {
      pages: 0,
      titled: 0,
      refKeeps: 0,
      refOpens: 0,
      ckKeeps: 0,
      ckDrops: 0,
      ckAdds: 0,
      added: 0,
      addedKept: 0,
      folds,
    };
    rows.set(type, r);
  }
  return r;
};

for (const page of loadWcxbPages(root)) {
  const gt = JSON.parse(fs.readFileSync(path.join(root, 'ground-truth', `${page.id}.json`), 'utf8')) as {
    ground_truth?: { title?: string };
  };
  const reviewed = words(gt.ground_truth?.title ?? '');
  const all = headings(parseDocument(page.html));
  const title = all.find((h) => reviewed && (reviewed.includes(h) || h.includes(reviewed))) ?? all[0];
  const ref = words(page.reference);
  const refKeeps = title !== undefined && ref.includes(title);
  const ckKeeps = title !== undefined && read(outDir, page.id).includes(title);
  const added = title !== undefined && addedDir !== undefined && !ckKeeps && read(addedDir, page.id).includes(title);
  const fold = foldOf(page);
  for (const r of [rowOf('all'), rowOf(page.type)]) {
    r.pages++;
    if (title === undefined) continue;
    r.titled++;
    r.folds[fold]!.titled++;
    if (refKeeps) r.folds[fold]!.refKeeps++;
    if (refKeeps) r.refKeeps++;
    if (ref.slice(0, title.length + 40).includes(title)) r.refOpens++;
    if (ckKeeps) r.ckKeeps++;
    if (refKeeps && !ckKeeps) r.ckDrops++;
    if (ckKeeps && !refKeeps) r.ckAdds++;
    if (added) r.added++;
    if (added && refKeeps) r.addedKept++;
  }
}

/** The folds' shares of titled pages whose reference keeps the title: mean ± standard deviation. */
function foldShare(r: Row): string {
  const shares = r.folds.filter((f) => f.titled > 0).map((f) => f.refKeeps / f.titled);
  const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
  const sd = Math.sqrt(shares.reduce((a, b) => a + (b - mean) ** 2, 0) / shares.length);
  return `${(100 * mean).toFixed(0)}% ± ${(100 * sd).toFixed(0)}`;
}

const head = ['type', 'pages', 'h1', 'ref keeps', 'over folds', 'ref opens', 'crawlkit keeps', 'ck drops', 'ck adds'];
if (addedDir) head.push('added', 'of them ref keeps');
const table = [head];
for (const type of ['all', ...PAGE_TYPES]) {
  const r = rows.get(type);
  if (!r) continue;
  const line = [type, r.pages, r.titled, r.refKeeps, foldShare(r), r.refOpens, r.ckKeeps, r.ckDrops, r.ckAdds];
  if (addedDir) line.push(r.added, r.addedKept);
  table.push(line.map(String));
}
const widths = head.map((_, i) => Math.max(...table.map((l) => l[i]!.length)));
for (const line of table)
  console.log(line.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
console.log(
  '\nh1: pages with an <h1>; ref keeps / opens: the reference holds the title / opens with it; ck drops: the reference' +
    ' keeps it and crawlkit does not; ck adds: the other way round' +
    (addedDir ? `; added: pages where ${addedDir} has the title and ${outDir} does not` : ''),
);
