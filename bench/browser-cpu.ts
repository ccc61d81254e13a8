/**
 * Browser CPU benchmark: `pnpm bench:browser-cpu` (or build @crawlkit/actions and @crawlkit/fetcher, then
 * `pnpm exec node bench/browser-cpu.ts`).
 *
 * CPU time per rendered page, as the kernel counts it, of the browser runners of `bench:browser` and of plain
 * puppeteer with and without a browser context per page. Each runner runs in a child process that puts itself in a
 * cgroup of its own before it starts anything, so the figure holds its Node process and every Chromium process it
 * starts, renderers that have already exited included; the fixture server stays in this process, outside. A rate of
 * pages per second moves with the machine's load (a run's ratios spread 0.6-1.7x at load 10); CPU per page hardly
 * does, so one change's effect shows on a shared machine, and the rows show what isolating every scrape in its own
 * context costs (the two plain puppeteer rows) beside what crawlkit adds to it.
 *
 * Per child: the fixture pages once (untimed: browser start, first navigations), then `PAGES_PER_RUN` pages 4 at a
 * time, timed and counted. Runners take turns, in an order that rotates each repetition; the figures are medians
 * over the repetitions. Needs a cgroup this user can create and join (cgroup v1 `cpuacct` or v2, as root); without
 * one it writes a result that says so and measures nothing.
 * `--quick` (or BENCH_QUICK=1): one repetition of 8 pages per runner, a smoke check.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { startFixtureServer } from '../fixtures/server.ts';
import {
  crawleeRunner,
  crawlkitRunner,
  MIN_RENDERED_CHARS,
  PAGES,
  puppeteerRunner,
  type Runner,
} from './lib/browser-runners.ts';
import { finish, goal, isQuick, median, withRatios, type Row } from './lib/report.ts';

const CONCURRENCY = 4;
/** crawlkit's own Chromium flag that the plain puppeteer rows get too: see `CHROMIUM_FLAGS` in the fetcher. */
const SITE_ISOLATION_OFF = '--disable-site-isolation-trials';
/** A child that has not answered after this long is stopped and counted as failed. */
const CHILD_TIMEOUT_MS = 240_000;
/** crawlkit's CPU per page may be this much above plain puppeteer's with a context per page. */
const FLOOR_TARGET = 1.2;

const RUNNERS: Record<string, Runner> = {
  crawlkit: crawlkitRunner(true),
  crawlee: crawleeRunner,
  'puppeteer-context': puppeteerRunner({
    name: 'plain puppeteer, a context per page',
    extraFlags: [SITE_ISOLATION_OFF],
  }),
  'puppeteer-shared': puppeteerRunner({
    name: 'plain puppeteer, one shared context',
    contextPerPage: false,
    extraFlags: [SITE_ISOLATION_OFF],
  }),
};

/** The CPU-time counter of a cgroup hierarchy this process may create groups in and join. */
interface CgroupRoot {
  dir: string;
  /** CPU time used by the processes of group `dir`, in milliseconds. */
  usageMs(dir: string): number;
}

function cgroupRoot(): CgroupRoot | undefined {
  const v1 = '/sys/fs/cgroup/cpuacct';
  if (existsSync(`${v1}/cpuacct.usage`))
    return { dir: v1, usageMs: (dir) => Number(readFileSync(`${dir}/cpuacct.usage`, 'utf8')) / 1e6 };
  const v2 = '/sys/fs/cgroup';
  if (existsSync(`${v2}/cgroup.controllers`)) {
    return {
      dir: v2,
      usageMs: (dir) => Number(/^usage_usec (\d+)/m.exec(readFileSync(`${dir}/cpu.stat`, 'utf8'))?.[1]) / 1e3,
    };
  }
  return undefined;
}

interface ChildResult {
  pages: number;
  wallMs: number;
  cpuMs: number;
  nodeMs: number;
  failed: number;
}

// ---- child: one runner in its own cgroup ----

async function child(id: string, group: string, baseUrl: string, pages: number): Promise<void> {
  const root = cgroupRoot()!;
  writeFileSync(`${group}/cgroup.procs`, String(process.pid));
  const runner = RUNNERS[id]!;
  const urls = PAGES.map((p) => baseUrl + p);
  const engine = await runner.open(CONCURRENCY);
  let failed = 0;
  const render = async (url: string) => {
    const html = await engine.render(url).catch(() => '');
    if (html.length < MIN_RENDERED_CHARS) failed++;
  };
  try {
    for (const url of urls) await render(url);
    failed = 0;
    const cpu0 = root.usageMs(group);
    const node0 = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < pages) await render(urls[next++ % urls.length]!);
      }),
    );
    const wallMs = performance.now() - started;
    const node = process.cpuUsage(node0);
    const result: ChildResult = {
      pages,
      wallMs,
      cpuMs: root.usageMs(group) - cpu0,
      nodeMs: (node.user + node.system) / 1000,
      failed,
    };
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  } finally {
    await engine.close();
  }
}

// ---- parent ----

function runChild(id: string, group: string, baseUrl: string, pages: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--child', id, group, baseUrl, String(pages)],
      { timeout: CHILD_TIMEOUT_MS, maxBuffer: 16 * 2 ** 20 },
      (error, stdout, stderr) => {
        const line = /^RESULT (.*)$/m.exec(stdout)?.[1];
        if (line) resolve(JSON.parse(line) as ChildResult);
        else reject(new Error(`${id}: ${error?.message ?? 'no result'} ${stderr.slice(-500)}`));
      },
    );
  });
}

/** Removes `group` once its last process (a Chromium still exiting) is gone; kills what is left after 10 s. */
async function removeGroup(group: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      rmdirSync(group);
      return;
    } catch (error) {
      if (tries === 50) {
        for (const pid of readFileSync(`${group}/cgroup.procs`, 'utf8').split('\n').filter(Boolean)) {
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      }
      if (tries > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function parent(): Promise<void> {
  const quick = isQuick();
  const repetitions = Number(process.env.BENCH_REPETITIONS ?? (quick ? 1 : 3));
  const pages = Number(process.env.BENCH_PARALLEL_PAGES ?? (quick ? 8 : 24));
  const ids = Object.keys(RUNNERS);
  const root = cgroupRoot();
  let groupsUsable = false;
  if (root) {
    try {
      const probe = `${root.dir}/crawlkit-bench-probe-${process.pid}`;
      mkdirSync(probe);
      rmdirSync(probe);
      groupsUsable = true;
    } catch {
      // Not root, or a read-only hierarchy.
    }
  }
  const runs = new Map<string, ChildResult[]>(ids.map((id) => [id, []]));
  const errors = new Map<string, string>();
  if (root && groupsUsable) {
    const server = await startFixtureServer();
    try {
      for (let rep = 0; rep < repetitions; rep++) {
        for (const id of [...ids.slice(rep % ids.length), ...ids.slice(0, rep % ids.length)]) {
          const group = `${root.dir}/crawlkit-bench-${process.pid}-${id}-${rep}`;
          mkdirSync(group);
          try {
            runs.get(id)!.push(await runChild(id, group, server.url, pages));
          } catch (error) {
            errors.set(id, error instanceof Error ? error.message : String(error));
          } finally {
            await removeGroup(group);
          }
          console.log(`${RUNNERS[id]!.name}: repetition ${rep + 1} of ${repetitions} done`);
        }
      }
    } finally {
      await server.close();
    }
  }

  const perPage = (id: string, pick: (r: ChildResult) => number) => median(runs.get(id)!.map((r) => pick(r) / r.pages));
  const round = (n: number) => (Number.isFinite(n) ? Math.round(n) : null);
  const rows: Row[] = ids.map((id) => {
    const cpu = runs.get(id)!.map((r) => r.cpuMs / r.pages);
    return {
      runner: RUNNERS[id]!.name,
      'CPU ms/page': round(perPage(id, (r) => r.cpuMs)),
      'CPU range': cpu.length ? `${round(Math.min(...cpu))}-${round(Math.max(...cpu))}` : null,
      'Node ms/page': round(perPage(id, (r) => r.nodeMs)),
      'Chromium ms/page': round(perPage(id, (r) => r.cpuMs - r.nodeMs)),
      [`pages/s (${CONCURRENCY} at a time)`]:
        Math.round(median(runs.get(id)!.map((r) => r.pages / r.wallMs)) * 100_000) / 100,
      failed: runs.get(id)!.reduce((sum, r) => sum + r.failed, 0),
      error: errors.get(id) ?? '',
    };
  });
  const cpuOf = (id: string) => perPage(id, (r) => r.cpuMs);
  const floorRatio = cpuOf('crawlkit') / cpuOf('puppeteer-context');
  const isolationPrice = cpuOf('puppeteer-context') / cpuOf('puppeteer-shared');
  finish({
    name: 'browser-cpu',
    title: `browser-cpu: CPU time per rendered page (kernel-counted, Node and Chromium), ${pages} of ${PAGES.length} JS fixture pages ${CONCURRENCY} at a time, median of ${repetitions}`,
    quick,
    rows: withRatios(rows, 'CPU ms/page', RUNNERS.crawlkit!.name, 'runner'),
    notes: [
      root && groupsUsable
        ? `The plain puppeteer rows run with crawlkit's ${SITE_ISOLATION_OFF}; Crawlee with the flags of bench:browser. Price of a context per page (plain puppeteer): ${isolationPrice.toFixed(2)}x the CPU of one shared context.`
        : 'Not measured: needs a cgroup hierarchy this user can create groups in (cgroup v1 cpuacct or v2, as root).',
    ],
    goals: [
      goal(
        'browser-cpu.vs-context-floor',
        `browser-cpu: crawlkit's CPU per page within ${FLOOR_TARGET}x plain puppeteer's with a context per page`,
        floorRatio,
        FLOOR_TARGET,
        `${Number.isFinite(floorRatio) ? floorRatio.toFixed(2) : '-'}x (${round(cpuOf('crawlkit'))} vs ${round(cpuOf('puppeteer-context'))} ms; Crawlee ${round(cpuOf('crawlee'))}, one shared context ${round(cpuOf('puppeteer-shared'))})`,
        { atMost: true },
      ),
    ],
    data: { pages, repetitions, concurrency: CONCURRENCY, runs: Object.fromEntries(runs), isolationPrice },
  });
}

if (process.argv[2] === '--child') {
  const [, , , id, group, baseUrl, pages] = process.argv;
  await child(id!, group!, baseUrl!, Number(pages));
} else {
  await parent();
}
