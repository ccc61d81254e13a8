/**
 * Branding benchmark: `pnpm build && node bench/branding.ts [--quick]`.
 *
 * The three branded fixture pages (`fixtures/site/branding/`) and a large generated page rendered in Chromium by
 * `ck.scrape()`, with `['markdown']` forced to the browser (the baseline: the same render without branding) and with
 * `['branding']`, interleaved page by page so that machine noise hits both alike. The difference is what measuring
 * the brand costs: the in-page collector and the profile builder. Goal (issue 9): under 250 ms added per page
 * (median). Also checks that the fixtures' expected primary colours come out (the accuracy the tests pin down).
 * Writes bench/results/branding.json.
 */
import { Crawlkit } from 'crawlkit';

import { startFixtureServer } from '../fixtures/server.ts';
import { generatedPage } from './lib/generated-site.ts';
import { finish, goal, isQuick, median, percentile, type Row } from './lib/report.ts';

const quick = isQuick();
const ROUNDS = quick ? 1 : 10;

const big = generatedPage(5, { pages: 100 });
const server = await startFixtureServer({
  routes: {
    '/bench/big.html': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(big);
    },
  },
});
const pages: { name: string; path: string; primary?: string }[] = [
  { name: 'light', path: '/branding/light.html', primary: '#e4572e' },
  { name: 'dark', path: '/branding/dark.html', primary: '#8b5cf6' },
  { name: 'css variables', path: '/branding/vars.html' },
  { name: 'generated, 100 links', path: '/bench/big.html' },
];

const ck = new Crawlkit({
  store: 'memory',
  engine: 'browser',
  browser: { args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] },
  timeoutMs: 60_000,
});

async function timed(body: Parameters<Crawlkit['scrape']>[0]) {
  const start = performance.now();
  const response = await ck.scrape(body);
  const ms = performance.now() - start;
  if (!response.success) throw new Error(`scrape failed: ${response.error}`);
  return { ms, doc: response.data };
}

const plain: Record<string, number[]> = {};
const branded: Record<string, number[]> = {};
const primaries: Record<string, string | undefined> = {};
// Warm-up: Chromium start and the first renderer.
for (const page of pages) {
  await timed({ url: `${server.url}${page.path}`, formats: ['markdown'], maxAge: 0 });
  await timed({ url: `${server.url}${page.path}`, formats: ['branding'] });
}
for (let round = 0; round < ROUNDS; round++) {
  for (const page of pages) {
    const url = `${server.url}${page.path}`;
    (plain[page.name] ??= []).push((await timed({ url, formats: ['markdown'], maxAge: 0 })).ms);
    const b = await timed({ url, formats: ['branding'] });
    (branded[page.name] ??= []).push(b.ms);
    primaries[page.name] = b.doc.branding?.colors?.primary;
  }
}
await ck.close();
await server.close();

const rows: Row[] = pages.map((page) => {
  const p = plain[page.name]!;
  const b = branded[page.name]!;
  return {
    page: page.name,
    'markdown (browser) median ms': Math.round(median(p)),
    'branding median ms': Math.round(median(b)),
    'branding p95 ms': Math.round(percentile(b, 0.95)),
    'added ms': Math.round(median(b) - median(p)),
    primary: primaries[page.name] ?? null,
  };
});
const added = median(rows.map((r) => r['added ms'] as number));
const expected = pages.filter((p) => p.primary);
const right = expected.filter((p) => primaries[p.name] === p.primary).length;

finish({
  name: 'branding',
  title: 'branding: cost per page over the same browser render, and the fixtures’ primary colours',
  quick,
  rows,
  goals: [
    goal('branding-cost', 'branding adds < 250 ms per page (median of pages)', added, 250, `${added} ms`, {
      atMost: true,
    }),
    goal(
      'branding-primary',
      'expected primary colours of the fixtures',
      right / expected.length,
      1,
      `${right}/${expected.length}`,
    ),
  ],
  data: { rounds: ROUNDS, plain, branded },
});
