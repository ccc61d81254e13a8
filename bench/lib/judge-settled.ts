// The render judge's `countAll: false` (a verdict settled once the content passes every threshold) checked and timed
// on the WCXB dev split: the reason must be the same as the whole pass's on every page, at its URL and at a
// client-side route of it; then the judge's time a page both ways (min of 9), on the 12 largest pages and on every
// 5th page.
//
// Run: pnpm build && pnpm exec node bench/lib/judge-settled.ts   (about 30 s)
import { judgeRendering, type JudgedPage } from '@crawlkit/fetcher/analysis';

import { loadWcxbPages } from './wcxb.ts';

const datasets = process.env.WCXB_DIR ?? new URL('../../../shared/datasets/wcxb-dev', import.meta.url).pathname;
const pages = loadWcxbPages(datasets);
const at = (url: string, text: string): JudgedPage => ({ url, status: 200, contentType: 'text/html', text });

let same = 0;
let settled = 0;
const differing: string[] = [];
for (const page of pages) {
  for (const url of ['https://example.com/a', 'https://example.com/a#/route']) {
    const whole = judgeRendering(at(url, page.html));
    const early = judgeRendering(at(url, page.html), { countAll: false });
    if (whole.reason === early.reason) same++;
    else differing.push(`${page.id} ${url}: ${whole.reason} / ${early.reason}`);
    if (early.contentChars !== whole.contentChars) settled++;
  }
}
console.log(
  `reasons the same on ${same} of ${pages.length * 2} (pages x {plain URL, route}); the pass stopped early on ${settled}`,
);
for (const line of differing) console.log(`DIFFERENT ${line}`);

const bestOf = (fn: () => void): number => {
  let best = Infinity;
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
};
const time = (set: typeof pages): { whole: number; early: number } => {
  let whole = 0;
  let early = 0;
  for (const page of set) {
    const judged = at('https://example.com/a', page.html);
    whole += bestOf(() => judgeRendering(judged));
    early += bestOf(() => judgeRendering(judged, { countAll: false }));
  }
  return { whole: whole / set.length, early: early / set.length };
};
const largest = [...pages].sort((a, b) => b.html.length - a.html.length).slice(0, 12);
const fifth = pages.filter((_, i) => i % 5 === 0);
for (let round = 1; round <= 2; round++) {
  const big = time(largest);
  const mix = time(fifth);
  console.log(
    `round ${round}: ms a page, whole pass / countAll false: 12 largest ${big.whole.toFixed(2)} / ${big.early.toFixed(2)}, every 5th page ${mix.whole.toFixed(3)} / ${mix.early.toFixed(3)}`,
  );
}
process.exitCode = differing.length ? 1 : 0;
