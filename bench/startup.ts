// What a new process pays before its first result: `import('crawlkit')`, `new Crawlkit()` + one `scrape()` of a
// local page to markdown (the extraction worker's start included), and `crawlkit scrape URL` through the CLI; beside
// them in the same run Crawlee's `CheerioCrawler` (+ turndown) importing and turning the same page into markdown, a
// floor (`undici` + `htmlparser2` alone) and an empty Node process. Every figure is a fresh process; the rows
// alternate within each round and each row's median is kept.
//
//   pnpm bench:startup [--quick] [--rounds N]
//   CK_BENCH_CRAWLKIT=<build>/packages/crawlkit/dist/index.js: the crawlkit rows run on another build (an A/B).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveStaticSite } from './lib/static-site.ts';
import { finish, goal, isQuick, median, type Row } from './lib/report.ts';

const args = process.argv.slice(2);
const quick = isQuick(args);
const roundsFlag = args.indexOf('--rounds');
const rounds = roundsFlag >= 0 ? Number(args[roundsFlag + 1]) : quick ? 3 : 9;

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, 'lib', 'startup-child.ts');
const fixtures = join(here, '..', 'fixtures', 'site');
const entry = process.env['CK_BENCH_CRAWLKIT'] || fileURLToPath(import.meta.resolve('crawlkit'));
const cli = join(dirname(entry), 'cli.js');

/** The goal of the import alone: a third of what it was (~650 ms quiet), near the cost of undici + zod. */
const IMPORT_GOAL_MS = 250;

interface Sample {
  importMs: number;
  firstMs: number;
  exitMs: number;
  chars: number;
}

/** Runs one fresh process; `firstMs` is its own figure (since it started), `exitMs` spawn to exit as seen here. */
function run(argv: string[]): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const proc = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const exitMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`${argv.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      resolve({ exitMs, ...parse(out, exitMs) });
    });
  });
}

/** The child's JSON line; the CLI prints the markdown itself, so its first result is its exit. */
function parse(out: string, exitMs: number): Omit<Sample, 'exitMs'> {
  const line = out.split('\n').find((l) => l.startsWith('{"importMs"'));
  if (line) return JSON.parse(line) as Omit<Sample, 'exitMs'>;
  return { importMs: Number.NaN, firstMs: exitMs, chars: out.length };
}

const site = await serveStaticSite(fixtures);
const url = `${site.url}/articles/first-post.html`;
const store = () => mkdtempSync(join(tmpdir(), 'ck-startup-'));

const ROWS: { name: string; argv: () => string[] }[] = [
  { name: 'node (empty process)', argv: () => [child, 'node'] },
  { name: "crawlkit: import('crawlkit')", argv: () => [child, 'crawlkit-import'] },
  { name: 'crawlkit: new Crawlkit() + scrape() to markdown', argv: () => [child, 'crawlkit-scrape', url, store()] },
  { name: 'crawlkit CLI: crawlkit scrape URL', argv: () => [cli, 'scrape', url, '--store', store()] },
  { name: 'crawlee: CheerioCrawler + turndown, one page', argv: () => [child, 'crawlee-scrape', url, store()] },
  { name: 'floor: undici + htmlparser2, one page', argv: () => [child, 'floor-scrape', url] },
];

const samples = new Map<string, Sample[]>(ROWS.map((r) => [r.name, []]));
for (let round = 0; round < rounds; round++) {
  // Alternate the order so that no row always runs right after the same one.
  const order = round % 2 === 0 ? ROWS : [...ROWS].reverse();
  for (const row of order) samples.get(row.name)!.push(await run(row.argv()));
}
await site.close();

const med = (name: string, key: keyof Sample) => median(samples.get(name)!.map((s) => s[key]));
const rows: Row[] = ROWS.map(({ name }) => ({
  row: name,
  'import ms': Math.round(med(name, 'importMs')),
  'first result ms': Math.round(med(name, 'firstMs')),
  'exit ms': Math.round(med(name, 'exitMs')),
  'markdown chars': med(name, 'chars'),
}));

const importMs = med(ROWS[1]!.name, 'importMs');
const firstCrawlkit = med(ROWS[2]!.name, 'firstMs');
const firstCrawlee = med(ROWS[4]!.name, 'firstMs');
finish({
  name: 'startup',
  title: `Start-up in a new process: medians of ${rounds} fresh processes a row, rows alternating`,
  quick,
  columns: ['row', 'import ms', 'first result ms', 'exit ms', 'markdown chars'],
  rows,
  notes: [
    'import ms: the import alone; first result ms: since the process started (Node start-up included); exit ms:',
    'spawn to exit as the parent sees it (the CLI prints its markdown, then exits).',
    `crawlkit build: ${entry}`,
  ],
  goals: [
    goal(
      'startup.import',
      `import('crawlkit') <= ${IMPORT_GOAL_MS} ms`,
      importMs,
      IMPORT_GOAL_MS,
      `${Math.round(importMs)} ms`,
      { atMost: true },
    ),
    goal(
      'startup.first-scrape',
      "first scrape in a new process (import + new Crawlkit() + scrape to markdown) <= Crawlee's",
      firstCrawlkit / firstCrawlee,
      1,
      `${Math.round(firstCrawlkit)} vs ${Math.round(firstCrawlee)} ms (${(firstCrawlkit / firstCrawlee).toFixed(2)}x)`,
      { atMost: true },
    ),
  ],
  data: { rounds, entry, samples: Object.fromEntries(samples) },
});
