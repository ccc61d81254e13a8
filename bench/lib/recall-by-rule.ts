// Which rule drops the reviewed main content (issue 42, q71): per page of the WCXB dev split (WCXB v1.0 by Murrough
// Foley, CC-BY-4.0, read from the shared datasets folder, never copied), the reference's tokens that the output
// misses, charged to the dropped blocks (`explainPage`) that hold them, summed by rule and page type. Prints counts
// only, never a page's text, so it may be run on judging folds.
//
// Accounting: the output is `extractPage`'s markdown (what `scrape()` returns), stripped and tokenised as
// score-wcxb.mjs does; the reference's tokens it misses (a multiset difference) are charged in document order to the
// dropped blocks' own tokens, and a block's other tokens count as "other". With `--strict` a block counts only when half
// or more of its tokens are missed ones (charged loosely, menus and footers soak up missed common words).
//
//   pnpm exec node bench/lib/recall-by-rule.ts --folds 0,1 [--strict] [--types article,forum] [--top N]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { foldOf, PAGE_TYPES, siteOf } from './folds.ts';
import { argValue, datasets, dist, loadScorer, mainMarkdown } from './rule-ablation.ts';
import { loadWcxbPages } from './wcxb.ts';

interface Block {
  verdict: 'kept' | 'dropped';
  rule: string;
  text: string;
}
interface Extractor {
  extractPage(html: string, o: object): { markdown?: string };
  explainPage(html: string, o: object): { blocks: Block[] };
}

/** What one rule lost on one type: tokens the reference keeps, the blocks' other tokens, after the story, pages, sites. */
interface Loss {
  kept: number;
  other: number;
  after: number;
  pages: Set<string>;
  sites: Set<string>;
}

const TOKEN = /[\p{L}\p{N}_]+/gu;
const tokens = (text: string): string[] => text.toLowerCase().match(TOKEN) ?? [];

const folds = new Set((argValue('--folds') ?? '0,1,2,3,4').split(',').map(Number));
const strict = process.argv.includes('--strict');
const top = Number(argValue('--top') ?? 12);
const types = argValue('--types')?.split(',') ?? [...PAGE_TYPES];
const extractor = (await import(pathToFileURL(path.join(dist, 'index.js')).href)) as Extractor;
const scorer = await loadScorer();
const pages = loadWcxbPages(path.join(datasets, 'wcxb-dev'), { types }).filter((p) => folds.has(foldOf(p)));

const losses = new Map<string, Map<string, Loss>>();
const missedBy = new Map<string, [number, number]>();
for (const page of pages) {
  const markdown = mainMarkdown(extractor, page);
  const reference = tokens(page.reference);
  const words = new Set(reference);
  const missing = new Map<string, number>();
  for (const t of reference) missing.set(t, (missing.get(t) ?? 0) + 1);
  for (const t of tokens(scorer.stripMarkdown(markdown))) if (missing.has(t)) missing.set(t, missing.get(t)! - 1);
  let missed = 0;
  for (const n of missing.values()) missed += Math.max(0, n);
  for (const key of ['all', page.type]) {
    const m = missedBy.get(key) ?? [0, 0];
    m[0] += missed;
    m[1] += reference.length;
    missedBy.set(key, m);
  }
  const { blocks } = extractor.explainPage(page.html, { url: page.url, suggest: false });
  const own = blocks.map((b) => tokens(b.text));
  // the story ends at the last kept block of 4+ tokens, 80% of them words of the reference
  let end = -1;
  blocks.forEach((b, i) => {
    const t = own[i]!;
    if (b.verdict === 'kept' && t.length >= 4 && t.filter((w) => words.has(w)).length >= 0.8 * t.length) end = i;
  });
  blocks.forEach((b, i) => {
    if (b.verdict !== 'dropped') return;
    let kept = 0;
    for (const t of own[i]!) {
      const m = missing.get(t) ?? 0;
      if (m > 0) {
        kept++;
        missing.set(t, m - 1);
      }
    }
    const other = own[i]!.length - kept;
    if (kept === 0 || (strict && kept < other)) return;
    for (const key of ['all', page.type]) {
      const byRule = losses.get(key) ?? new Map<string, Loss>();
      losses.set(key, byRule);
      const loss = byRule.get(b.rule) ?? { kept: 0, other: 0, after: 0, pages: new Set(), sites: new Set() };
      byRule.set(b.rule, loss);
      loss.kept += kept;
      loss.other += other;
      if (end >= 0 && i > end) loss.after += kept;
      loss.pages.add(page.id);
      loss.sites.add(siteOf(page));
    }
  });
}

const n = (x: number): string => x.toLocaleString('en-US');
process.stdout.write(`Folds ${[...folds].join(', ')}: ${pages.length} pages${strict ? ' (strict)' : ''}\n`);
for (const key of ['all', ...types]) {
  const byRule = losses.get(key);
  const [missed, total] = missedBy.get(key) ?? [0, 0];
  if (!byRule) continue;
  process.stdout.write(`\n${key}: ${n(missed)} of ${n(total)} reference tokens missed by the output\n\n`);
  process.stdout.write('| rule | kept by the reference | of them after the story | other tokens | pages | sites |\n');
  process.stdout.write('| --- | ---: | ---: | ---: | ---: | ---: |\n');
  for (const [rule, l] of [...byRule].sort((a, b) => b[1].kept - a[1].kept).slice(0, top)) {
    process.stdout.write(
      `| ${rule} | ${n(l.kept)} | ${n(l.after)} | ${n(l.other)} | ${l.pages.size} | ${l.sites.size} |\n`,
    );
  }
}
