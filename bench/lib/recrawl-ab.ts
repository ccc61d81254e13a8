/**
 * A new process's recrawl, two builds side by side (issue 41): `node bench/lib/recrawl-ab.ts BASE_WORKTREE [PAIRS]`.
 *
 * The bench/recrawl.ts site (300 pages with validators) is crawled once by each build in a new process; then
 * `bench/recrawl.ts --child` of the base worktree and of this one recrawl copies of their own store in alternating new
 * processes (the order flips each pair). Prints each child's wall, CPU (every thread) and main-thread CPU, and the
 * medians (with `CK_BENCH_PHASES=1`, each child's phases too). With `CK_AB_PROF=DIR`, each child writes a CPU profile there (`--cpu-prof`).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { startRecrawlSite } from './recrawl-site.ts';
import { median } from './report.ts';

const [baseTree, pairsArg] = process.argv.slice(2);
if (!baseTree) throw new Error('usage: node bench/lib/recrawl-ab.ts BASE_WORKTREE [PAIRS]');
const PAGES = 300;
const PAIRS = Number(pairsArg ?? 8);
const here = join(fileURLToPath(import.meta.url), '..');
const scripts = { base: join(baseTree, 'bench', 'recrawl.ts'), branch: join(here, '..', 'recrawl.ts') };
const prof = process.env.CK_AB_PROF;

interface Child {
  ms: number;
  cpuMs: number;
  mainCpuMs: number;
  pages: number;
  same: boolean;
}
const site = await startRecrawlSite(PAGES);
const url = `${site.url}/`;
const child = async (script: string, dir: string, name?: string): Promise<Child> => {
  const flags = prof && name ? ['--cpu-prof', `--cpu-prof-dir=${prof}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [
    ...flags,
    script,
    '--child',
    url,
    dir,
    String(PAGES),
  ]);
  if (stderr.trim()) console.log(`  ${name ?? 'store'}: ${stderr.trim()}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Child;
};
// Each build recrawls what its own first crawl stored: a build may keep other things (or keep them otherwise).
const stores = { base: mkdtempSync(join(tmpdir(), 'ck-ab-')), branch: mkdtempSync(join(tmpdir(), 'ck-ab-')) };
for (const build of ['base', 'branch'] as const) await child(scripts[build], stores[build]);
const runs: Record<'base' | 'branch', Child[]> = { base: [], branch: [] };
for (let pair = 0; pair < PAIRS; pair++) {
  const order: ('base' | 'branch')[] = pair % 2 ? ['branch', 'base'] : ['base', 'branch'];
  for (const build of order) {
    const dir = mkdtempSync(join(tmpdir(), 'ck-ab-'));
    copyFileSync(join(stores[build], 'crawlkit.db'), join(dir, 'crawlkit.db'));
    site.resetCounts();
    const run = await child(scripts[build], dir, `${build}-${pair}`);
    const notModified = [...site.notModified.values()].reduce((a, b) => a + b, 0);
    if (!run.same || run.pages !== PAGES || notModified !== PAGES) {
      throw new Error(`${build}: ${JSON.stringify(run)}, ${notModified} 304s`);
    }
    runs[build].push(run);
    console.log(
      `${pair} ${build.padEnd(6)} wall ${run.ms.toFixed(0)} cpu ${run.cpuMs.toFixed(0)} main ${run.mainCpuMs.toFixed(0)}`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const store of Object.values(stores)) rmSync(store, { recursive: true, force: true });
await site.close();
for (const build of ['base', 'branch'] as const) {
  const of = (field: keyof Child) => median(runs[build].map((run) => run[field] as number)).toFixed(0);
  console.log(`median ${build.padEnd(6)} wall ${of('ms')} cpu ${of('cpuMs')} main ${of('mainCpuMs')}`);
}
