// Where a big page's memory goes (mem40): a generated page of one large table (`--mb`, 13 MB by default; never
// committed), each step in a fresh process of its own so that its peak resident set (VmHWM) is its alone:
// - modules: crawlkit and the extractor loaded, nothing done (the floor the others are read against);
// - decode: the page's bytes made text (`decodeText`, as the worker does);
// - parse: decode + the DOM (`parseHtml`);
// - extract: decode + `extractPage` to markdown (main content, metadata): the worker's call, on one thread;
// - scrape, in thread: `scrape()` of the page served over HTTP, `workers: { size: 0 }` (no crossing between threads);
// - scrape, pool: the same with the extraction pool (the default): the page crosses to a worker and back.
// Then the extraction's own steps in one process (bench/lib/big-page-steps.ts): the peak each step raised and what
// stays live after it (parse, metadata, main content, clean, markdown).
//
//   pnpm bench:big-page-memory [--mb N] [--rounds N]      (the child: node bench/big-page-memory.ts --step NAME FILE)
// Writes bench/results/big-page-memory.json.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';

import { numberOption } from './lib/ab-builds.ts';
import { bigTablePage } from './lib/big-table-page.ts';
import { startPageServerProcess } from './lib/page-server-process.ts';
import { peakRssMB } from './lib/peak-rss.ts';
import { finish, isQuick, median, printTable, type Row } from './lib/report.ts';

const args = process.argv.slice(2);
const STEPS = ['modules', 'decode', 'parse', 'extract', 'scrape, in thread', 'scrape, pool'] as const;
type Step = (typeof STEPS)[number];

interface StepResult {
  step: Step;
  peakRss: number;
  ms: number;
  /** This thread's heap after the step (MiB, not collected): what it still holds. */
  heapUsed: number;
  markdownChars: number;
  error?: string;
}

if (args[0] === '--step') {
  const step = args[1] as Step;
  const file = args[2]!;
  const url = args[3];
  const { decodeText } = await import('@crawlkit/fetcher/analysis');
  const { extractPage, parseHtml } = await import('@crawlkit/extractor');
  const { Crawlkit } = await import('crawlkit');
  const bytes = step === 'decode' || step === 'parse' || step === 'extract' ? readFileSync(file) : undefined;
  const t0 = performance.now();
  let markdownChars = 0;
  let error: string | undefined;
  let keep: unknown;
  if (bytes) {
    const { text } = decodeText(new Uint8Array(bytes), 'text/html; charset=utf-8', undefined, undefined);
    if (step === 'parse') keep = parseHtml(text);
    if (step === 'extract') {
      const page = extractPage(text, { url: url!, onlyMainContent: true, formats: { markdown: true, metadata: true } });
      markdownChars = page.markdown?.length ?? 0;
    }
    keep ??= text;
  } else if (step !== 'modules') {
    const storeDir = mkdtempSync(join(tmpdir(), 'ck-bench-big-page-'));
    const ck = new Crawlkit({
      storeDir,
      engine: 'http',
      ...(step === 'scrape, in thread' ? { workers: { size: 0 } } : {}),
    });
    const result = await ck.scrape({ url: url!, formats: ['markdown'], maxAge: 0, timeout: 300_000 });
    if (result.success) markdownChars = result.data.markdown?.length ?? 0;
    else error = `${result.code}: ${result.error}`;
    await ck.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
  const ms = Math.round(performance.now() - t0);
  const heapUsed = Math.round(getHeapStatistics().used_heap_size / 2 ** 20);
  void keep;
  const out: StepResult = { step, peakRss: peakRssMB(), ms, heapUsed, markdownChars, ...(error ? { error } : {}) };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

const MB = numberOption('--mb', 13, args);
const ROUNDS = numberOption('--rounds', isQuick(args) ? 1 : 3, args);
const dir = mkdtempSync(join(tmpdir(), 'ck-bench-big-page-'));
const html = bigTablePage(MB);
const file = join(dir, 'table.html');
writeFileSync(file, html);
const server = await startPageServerProcess(new Map([['/table.html', html]]));
const url = `${server.url}/table.html`;
console.log(`page: ${(html.length / 1e6).toFixed(1)} MB, ${html.split('<tr>').length - 1} rows`);

/** Runs this Node with `args`; resolves to the JSON of the last line the child prints. */
function lastJsonLine<T>(args: string[], what: string): Promise<T> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += String(d)));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as T) : reject(new Error(`${what}: ${code}`)),
    ),
  );
}

const runStep = (step: Step) => lastJsonLine<StepResult>([import.meta.filename, '--step', step, file, url], step);

interface InThreadStep {
  step: string;
  peakRss: number;
  live: number;
  ms: number;
}

/** bench/lib/big-page-steps.ts: the extraction's steps in one process, the peak after each and what stays live. */
const runInThreadSteps = async (): Promise<InThreadStep[]> =>
  (
    await lastJsonLine<{ steps: InThreadStep[] }>(
      ['--expose-gc', join(import.meta.dirname, 'lib', 'big-page-steps.ts'), file, url],
      'steps',
    )
  ).steps;

const results = new Map<Step, StepResult[]>(STEPS.map((s) => [s, []]));
const inThread: InThreadStep[][] = [];
try {
  // Steps alternate within each round (none always on the warmer machine).
  for (let round = 0; round < ROUNDS; round++) {
    for (const step of STEPS) results.get(step)!.push(await runStep(step));
    inThread.push(await runInThreadSteps());
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
const floor = median(results.get('modules')!.map((r) => r.peakRss));
const rows: Row[] = STEPS.map((step) => {
  const runs = results.get(step)!;
  const peak = median(runs.map((r) => r.peakRss));
  const row: Row = {
    step,
    'peak RSS': peak,
    'over modules': Math.round(peak - floor),
    'peak RSS (all)': runs.map((r) => r.peakRss).join(', '),
    ms: median(runs.map((r) => r.ms)),
    'heap after': median(runs.map((r) => r.heapUsed)),
    'markdown chars': runs[0]!.markdownChars,
  };
  if (runs[0]!.error) row['error'] = runs[0]!.error;
  return row;
});
const stepRows: Row[] = inThread[0]!.map(({ step }, i) => {
  const peaks = inThread.map((run) => run[i]!.peakRss);
  const before = i > 0 ? median(inThread.map((run) => run[i - 1]!.peakRss)) : median(peaks);
  return {
    'step (one process)': step,
    'peak RSS after': median(peaks),
    'raised by': Math.round(median(peaks) - before),
    'live after (collected)': median(inThread.map((run) => run[i]!.live)),
    ms: median(inThread.map((run) => run[i]!.ms)),
  };
});
console.log('\nThe extraction step by step in one process (MiB; medians):');
printTable(stepRows);
console.log('');
finish({
  name: 'big-page-memory',
  title: `Where a ${MB} MB page of one table goes in memory: peak RSS (MiB) of a fresh process a step, medians of ${ROUNDS}`,
  quick: isQuick(args),
  columns: ['step', 'peak RSS', 'over modules', 'peak RSS (all)', 'ms', 'heap after', 'markdown chars', 'error'],
  rows,
  goals: [],
  notes: ['Each step includes those above it (a scrape: fetch, decode, extraction, store).'],
  data: { mb: MB, rounds: ROUNDS, results: Object.fromEntries(results), inThread, stepRows },
});
