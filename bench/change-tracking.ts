/**
 * Change-tracking benchmark: `pnpm build && node bench/change-tracking.ts [--quick]`.
 *
 * 1. Verdicts: edits of a real-sized generated page, each with a known right answer (is it a change a reader would
 *    care about?), judged by crawlkit's rule (`isSameText`: the text itself, whitespace and volatile fragments
 *    aside) and by the upstream rule as reference §11 describes it (whitespace and iframe links deleted, the
 *    characters sorted, then compared). Goal: every verdict right.
 * 2. Cost: `ck.scrape()` of the same page with `['markdown']` and with `['markdown', changeTracking git-diff]` on the
 *    memory store and on the on-disk store, interleaved round by round; and the comparison and diff alone on the
 *    page's markdown. Goal (issue 9): tracking adds under 5 ms to a scrape (median, on-disk store).
 * Writes bench/results/change-tracking.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { diffMarkdown, isSameText } from '@crawlkit/extractor';
import { Crawlkit } from 'crawlkit';

import { generatedPage } from './lib/generated-site.ts';
import { startPageServer } from './lib/page-server.ts';
import { finish, goal, isQuick, median, percentile, type Row } from './lib/report.ts';

const quick = isQuick();
const ROUNDS = quick ? 20 : 200;

/** The upstream comparison as the reference describes it (not its code): sorted characters, whitespace deleted. */
function sortedCharactersSame(previous: string, current: string): boolean {
  const norm = (text: string) => [...text.replace(/\[iframe\]\([^)]*\)/g, '').replace(/\s+/g, '')].sort().join('');
  return norm(previous) === norm(current);
}

// ------------------------------------------------------------------ verdicts --

const base = [
  '# Pricing',
  '',
  'Choose the plan that fits your team. All plans include unlimited projects.',
  '',
  '| Plan | Price |',
  '|---|---|',
  '| Starter | 12 EUR |',
  '| Team | 48 EUR |',
  '',
  '![Chart](https://cdn.example.com/img/chart.png?v=1712)',
  '',
  '1. Gold: Ann',
  '2. Silver: Bob',
  '',
  'The meetup is on 2026-12-01 in Lyon.',
  '',
  '*Last updated: 2026-11-22T18:50:52Z*',
].join('\n');

const edits: { name: string; changed: boolean; edit: (text: string) => string }[] = [
  { name: 'nothing', changed: false, edit: (t) => t },
  { name: 'whitespace re-wrap', changed: false, edit: (t) => t.replace('fits your team. ', 'fits your team.\n') },
  {
    name: 'table re-padded',
    changed: false,
    edit: (t) => t.replace('| Starter | 12 EUR |', '| Starter   | 12 EUR   |'),
  },
  {
    name: '"last updated" timestamp',
    changed: false,
    edit: (t) => t.replace('2026-11-22T18:50:52Z', '2026-11-23T07:01:09Z'),
  },
  { name: 'image cache buster', changed: false, edit: (t) => t.replace('?v=1712', '?v=1899') },
  { name: 'price digits swapped (12 -> 21)', changed: true, edit: (t) => t.replace('12 EUR', '21 EUR') },
  {
    name: 'ranking reordered',
    changed: true,
    edit: (t) => t.replace('Gold: Ann', 'Gold: Bob').replace('Silver: Bob', 'Silver: Ann'),
  },
  {
    name: 'paragraphs reordered',
    changed: true,
    edit: (t) => t.replace(/(1\. Gold: Ann\n2\. Silver: Bob)\n\n(The meetup[^\n]+)/, '$2\n\n$1'),
  },
  { name: 'event date moved', changed: true, edit: (t) => t.replace('2026-12-01', '2026-12-10') },
  { name: 'word edited', changed: true, edit: (t) => t.replace('unlimited projects', 'unlimited project') },
  {
    name: 'line added',
    changed: true,
    edit: (t) => t.replace('| Team | 48 EUR |', '| Team | 48 EUR |\n| Scale | 96 EUR |'),
  },
];

const verdictRows: Row[] = [];
let crawlkitRight = 0;
let upstreamRight = 0;
for (const { name, changed, edit } of edits) {
  const current = edit(base);
  const crawlkit = !isSameText(base, current);
  const upstream = !sortedCharactersSame(base, current);
  if (crawlkit === changed) crawlkitRight++;
  if (upstream === changed) upstreamRight++;
  verdictRows.push({
    edit: name,
    truth: changed ? 'changed' : 'same',
    crawlkit: `${crawlkit ? 'changed' : 'same'}${crawlkit === changed ? '' : ' ✗'}`,
    'sorted characters': `${upstream ? 'changed' : 'same'}${upstream === changed ? '' : ' ✗'}`,
  });
}

// ---------------------------------------------------------------------- cost --

const html = generatedPage(3, { pages: 100 });
const server = await startPageServer(new Map([['/page.html', html]]));
const url = `${server.url}/page.html`;
const root = mkdtempSync(join(tmpdir(), 'ck-bench-change-'));
const memory = new Crawlkit({ store: 'memory', engine: 'http' });
const disk = new Crawlkit({ storeDir: join(root, 'store'), engine: 'http' });

const plain = { url, formats: ['markdown' as const], maxAge: 0 };
const tracked = {
  url,
  formats: ['markdown' as const, { type: 'changeTracking' as const, modes: ['git-diff' as const] }],
};

async function timed(ck: Crawlkit, body: Parameters<Crawlkit['scrape']>[0]): Promise<number> {
  const start = performance.now();
  const response = await ck.scrape(body);
  const ms = performance.now() - start;
  if (!response.success) throw new Error(`scrape failed: ${response.error}`);
  return ms;
}

const samples: Record<string, number[]> = { memPlain: [], memTracked: [], diskPlain: [], diskTracked: [] };
for (let i = 0; i < 10; i++) {
  await timed(memory, plain);
  await timed(memory, tracked);
  await timed(disk, plain);
  await timed(disk, tracked);
}
for (let round = 0; round < ROUNDS; round++) {
  samples.memPlain!.push(await timed(memory, plain));
  samples.memTracked!.push(await timed(memory, tracked));
  samples.diskPlain!.push(await timed(disk, plain));
  samples.diskTracked!.push(await timed(disk, tracked));
}

const page = await memory.scrape({ url, formats: ['markdown'], maxAge: 0 });
if (!page.success) throw new Error('scrape failed');
const markdown = page.data.markdown ?? '';
const edited = markdown.replace(/\n\n/, '\n\nA new paragraph in the middle of the page.\n\n');
const micro = async (fn: () => unknown, n: number) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
};
const compareMs = await micro(() => isSameText(markdown, edited), quick ? 50 : 300);
const sortedMs = await micro(() => sortedCharactersSame(markdown, edited), quick ? 50 : 300);
const diffMs = await micro(() => diffMarkdown(markdown, edited), quick ? 50 : 300);

await memory.close();
await disk.close();
await server.close();
rmSync(root, { recursive: true, force: true });

const row = (name: string, list: number[], basis: number[]): Row => ({
  scrape: name,
  'median ms': Math.round(median(list) * 100) / 100,
  'p95 ms': Math.round(percentile(list, 0.95) * 100) / 100,
  'added ms': Math.round((median(list) - median(basis)) * 100) / 100,
});
const costRows: Row[] = [
  row('memory store, markdown', samples.memPlain!, samples.memPlain!),
  row('memory store, + changeTracking git-diff', samples.memTracked!, samples.memPlain!),
  row('on-disk store, markdown', samples.diskPlain!, samples.diskPlain!),
  row('on-disk store, + changeTracking git-diff', samples.diskTracked!, samples.diskPlain!),
];
const added = median(samples.diskTracked!) - median(samples.diskPlain!);

finish({
  name: 'change-tracking',
  title: 'changeTracking: verdicts on known edits (vs the sorted-characters rule) and cost per scrape',
  quick,
  columns: ['edit', 'truth', 'crawlkit', 'sorted characters'],
  rows: verdictRows,
  goals: [
    goal(
      'change-verdicts',
      'change verdicts right on known edits',
      crawlkitRight / edits.length,
      1,
      `${crawlkitRight}/${edits.length} (sorted characters: ${upstreamRight}/${edits.length})`,
    ),
    goal(
      'change-cost',
      'changeTracking adds < 5 ms per scrape (on-disk store, median)',
      added,
      5,
      `${added.toFixed(2)} ms`,
      {
        atMost: true,
      },
    ),
  ],
  data: { costRows, markdownChars: markdown.length, compareMs, sortedMs, diffMs, rounds: ROUNDS },
  notes: [
    ...costRows.map(
      (r) =>
        `${String(r.scrape).padEnd(42)} median ${String(r['median ms']).padStart(7)} ms  p95 ${String(r['p95 ms']).padStart(7)} ms  added ${r['added ms']} ms`,
    ),
    `on ${markdown.length} chars of markdown: isSameText ${compareMs.toFixed(3)} ms, sorted characters ${sortedMs.toFixed(3)} ms, diffMarkdown ${diffMs.toFixed(3)} ms (medians)`,
  ],
});
