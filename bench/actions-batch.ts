/**
 * Actions at scale: `pnpm bench:actions-batch` (= `pnpm build && node bench/actions-batch.ts [--quick]`).
 *
 * A QA engineer's flow over every page of a batch: `batchScrape()` of 200 item pages of the QA app
 * (test/helpers/qa-app.ts) with the same six actions each (click the search field, type, screenshot, click search,
 * wait for the XHR's results, screenshot), one page of them broken (its flow fails at action 0). Two runs: the
 * screenshots as base64 in the results (the default), then written under `browser.screenshotDir`. Measured: time,
 * pages per second, the peak PSS of this Node process and of the Chromium processes it started (its process tree),
 * the screenshots' bytes in the results, the errors (only the broken page may fail), and the profile directories
 * its Chromium ran with that are left after `close()`.
 * `--quick` (or BENCH_QUICK=1): 20 pages. Prints a table and writes bench/results/actions-batch.json.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type Document } from 'crawlkit';

import { startQaApp } from '../test/helpers/qa-app.ts';
import { pss } from './lib/process-memory.ts';
import { finish, goal, isQuick, type Row } from './lib/report.ts';

const quick = isQuick();
const PAGES = quick ? 20 : 200;
const BROKEN = 7;
const ACTIONS = [
  { type: 'click', selector: '#q' },
  { type: 'write', text: 'cats' },
  { type: 'screenshot' },
  { type: 'click', selector: '#go' },
  { type: 'wait', selector: '.hit' },
  { type: 'screenshot' },
] as const;

/** The processes under this one (Chromium and its helpers), from /proc's parent links. */
function descendants(): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid …`: the command may hold spaces and parentheses, so read after the last `)`.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return [...parent.keys()].filter(under);
}

/** The profile directory a Chromium process of ours runs with, if it names one. */
function profileOf(pid: number): string | undefined {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
  } catch {
    return undefined; // The process ended meanwhile.
  }
}

async function run(label: string, screenshotDir: string | undefined, url: string): Promise<Row> {
  const profiles = new Set<string>();
  const ck = new Crawlkit({
    store: 'memory',
    timeoutMs: 30_000,
    ...(screenshotDir ? { browser: { screenshotDir } } : {}),
  });
  let peakNode = 0;
  let peakChromium = 0;
  const sample = () => {
    peakNode = Math.max(peakNode, pss('self'));
    const pids = descendants();
    peakChromium = Math.max(
      peakChromium,
      pids.reduce((sum, pid) => sum + pss(pid), 0),
    );
    for (const pid of pids) {
      const profile = profileOf(pid);
      if (profile) profiles.add(profile);
    }
  };
  const sampler = setInterval(sample, 1_000);
  const started = performance.now();
  const urls = Array.from({ length: PAGES }, (_, i) => `${url}/app/item/${i}${i === BROKEN ? '?broken' : ''}`);
  const job = await ck.batchScrape({ urls, formats: ['markdown'], maxAge: 0, actions: [...ACTIONS] });
  if (!job.success) throw new Error(job.error);
  let status = await ck.getBatchScrapeStatus(job.id, { limit: 1 });
  while (status.success && status.status === 'scraping') {
    await new Promise((resolve) => setTimeout(resolve, 500));
    status = await ck.getBatchScrapeStatus(job.id, { limit: 1 });
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  const docs: Document[] = [];
  for (let skip = 0; ;) {
    const page = await ck.getBatchScrapeStatus(job.id, { skip, limit: 50 });
    if (!page.success || page.data.length === 0) break;
    docs.push(...page.data);
    skip += page.data.length;
  }
  const errors = await ck.getBatchScrapeErrors(job.id);
  await ck.close();
  const shots = docs.flatMap((doc) => doc.actions?.screenshots ?? []);
  const failed = 'errors' in errors ? errors.errors : [];
  return {
    runner: label,
    pages: PAGES,
    completed: docs.length,
    errors: failed.length,
    'only the broken page failed':
      failed.length === 1 && failed[0]!.url.endsWith('?broken') && docs.length === PAGES - 1 ? 'yes' : 'no',
    seconds,
    'pages/s': PAGES / seconds,
    screenshots: shots.length,
    'screenshot bytes in results (MB)': shots.reduce((sum, s) => sum + s.length, 0) / 2 ** 20,
    'Node peak PSS (MB)': peakNode / 2 ** 20,
    'Chromium peak PSS (MB)': peakChromium / 2 ** 20,
    'files written': screenshotDir ? readdirSync(screenshotDir).length : 0,
    'profiles left': [...profiles].filter((profile) => existsSync(profile)).length,
  };
}

const app = await startQaApp();
const dir = mkdtempSync(join(tmpdir(), 'ck-actions-batch-'));
const rows: Row[] = [];
try {
  rows.push(await run('batchScrape, screenshots as base64', undefined, app.url));
  rows.push(await run('batchScrape, browser.screenshotDir', dir, app.url));
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

const worst = (column: string) => Math.max(...rows.map((row) => Number(row[column])));
finish({
  name: 'actions-batch',
  title: `Actions at scale: ${PAGES} pages, ${ACTIONS.length} actions and 2 screenshots each`,
  quick,
  rows,
  goals: [
    goal(
      'actions-batch.isolated',
      "one page's failing flow fails that page alone",
      rows.every((row) => row['only the broken page failed'] === 'yes') ? 1 : 0,
      1,
      rows.map((row) => row['only the broken page failed']).join(', '),
    ),
    goal(
      'actions-batch.chromium-pss',
      'Chromium peak PSS at most 1 GiB along the batch',
      worst('Chromium peak PSS (MB)'),
      1024,
      `${Math.round(worst('Chromium peak PSS (MB)'))} MB`,
      { atMost: true },
    ),
    goal(
      'actions-batch.profiles-left',
      'no profile of its Chromium left after close()',
      worst('profiles left'),
      0,
      String(worst('profiles left')),
      { atMost: true },
    ),
  ],
  data: { actions: ACTIONS },
});
