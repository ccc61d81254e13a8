/**
 * One measurement of `bench/monitor-close.ts`, in a process of its own (run with `--expose-gc`): a monitor of a crawl
 * target over a generated site of `pages` pages, checked twice with the crawlkit build `entry` (on-disk store), every
 * page edited between, so that the second check has every page `changed` with its diff. That check is then closed
 * again from its crawl's stored results (its record written back unclosed, then read by the monitor's view, which
 * reads its latest check's state), twice: once for its wall and CPU ms and the heap used above what it was before
 * (garbage included: sampled every millisecond and at each store read and write of the close, at its peak and after
 * it); once for the live heap above what it was before (a collection before each store read and write of the close,
 * so slower), at its peak.
 *
 *   node --expose-gc bench/lib/monitor-close-child.ts <crawlkit dist/index.js> <pages>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startChangingSite } from '../../fixtures/changing-site.ts';
import { loadMonitorBuild } from './monitor-build.ts';

const [entry, pagesArg] = process.argv.slice(2);
const count = Number(pagesArg);
const { Crawlkit, createSqliteStore, monitorStore } = await loadMonitorBuild(entry!);

const gc = (globalThis as { gc?: () => void }).gc!;
let peak = 0;
/** Whether each sample collects first (the live heap), else the heap used, garbage included. */
let live = false;
const sample = () => {
  if (live) gc();
  peak = Math.max(peak, process.memoryUsage().heapUsed);
};

/** `target` with every method bound to it, and `sample()` before each call of those named. */
function sampled<T extends object>(target: T, names: ReadonlySet<string | symbol>): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(object);
      if (!names.has(property)) return bound;
      return (...args: unknown[]) => {
        sample();
        return bound(...args);
      };
    },
  });
}

const text = (i: number, version: number) =>
  Array.from(
    { length: 8 },
    (_, line) => `Paragraph ${line} of page ${i}: the price of item ${i}-${line} is $${100 + version * 10 + line}.`,
  ).join('\n');
const day = Date.UTC(2026, 0, 1);
const site = await startChangingSite(
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `/page-${i}.html`,
      { title: `Page ${i}`, text: text(i, 1), modifiedAt: day },
    ]),
  ),
);
const dir = mkdtempSync(join(tmpdir(), 'ck-bench-close-'));
const sqlite = await createSqliteStore({ dir });
const store = new Proxy(sqlite, {
  get(object, property) {
    if (property === 'results') return sampled(sqlite.results, new Set(['list']));
    if (property === 'history') return sampled(sqlite.history, new Set(['append']));
    const value: unknown = Reflect.get(object, property, object);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
  },
});
const ck = new Crawlkit({ store, engine: 'http' });
const created = await ck.monitors.create({
  name: 'close',
  schedule: { cron: '0 0 1 1 *' },
  targets: [{ type: 'crawl', url: `${site.url}/`, crawlOptions: { sitemap: 'skip', limit: count + 10 } }],
});
if (!created.success) throw new Error(JSON.stringify(created));
const monitorId = created.data.id;

async function check(): Promise<string> {
  const run = await ck.monitors.run(monitorId);
  if (!run.success) throw new Error(JSON.stringify(run));
  for (;;) {
    const detail = await ck.monitors.check(monitorId, run.data.id, { limit: 1 });
    if (!detail.success) throw new Error(JSON.stringify(detail));
    if (detail.data.status !== 'running') return run.data.id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

await check();
for (let i = 0; i < count; i++)
  site.set(`/page-${i}.html`, { title: `Page ${i}`, text: text(i, 2), modifiedAt: day + 1 });
const second = await check();

// The second check again, unclosed: the next read closes it from its crawl's results.
const { closed: _closed, ...open } = await monitorStore.readCheck(store, second);
async function closeAgain(id: string) {
  await monitorStore.writeCheck(store, id, { ...open, startedAt: Date.now() });
  await monitorStore.addCheck(store, monitorId, id, Date.now());
  gc();
  const before = process.memoryUsage().heapUsed;
  peak = before;
  const sampler = setInterval(sample, 1);
  const cpu = process.cpuUsage();
  const started = performance.now();
  // The monitor's view reads its latest check's state: the close, without a page of the check's detail after it.
  const closed = await ck.monitors.get(monitorId);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  sample();
  const after = process.memoryUsage().heapUsed;
  const summary = closed.success ? closed.data.lastCheckSummary : null;
  if (!summary) throw new Error(JSON.stringify(closed).slice(0, 300));
  const check = await ck.monitors.check(monitorId, id, { limit: 1 });
  if (!check.success || check.data.status === 'running') throw new Error(JSON.stringify(check).slice(0, 300));
  return { ms, cpuMs: (used.user + used.system) / 1000, peak: peak - before, after: after - before, summary };
}
const timed = await closeAgain('0192f0a4-3333-7000-8000-000000000001');
live = true;
const collected = await closeAgain('0192f0a4-3333-7000-8000-000000000002');
const mb = (bytes: number) => Math.round((bytes / 1024 ** 2) * 10) / 10;
console.log(
  JSON.stringify({
    ms: timed.ms,
    cpuMs: timed.cpuMs,
    heapPeakMb: mb(timed.peak),
    heapAfterMb: mb(timed.after),
    liveHeapPeakMb: mb(collected.peak),
    pages: timed.summary.totalPages,
    changed: timed.summary.changed,
  }),
);
await ck.close();
await site.close();
rmSync(dir, { recursive: true, force: true });
