/**
 * One measurement of `bench/monitor-recheck.ts`: a monitor of a crawl target over a generated changing site, checked
 * twice with the crawlkit build `entry`; prints the second check's full bodies, 304s, pages `same`, wall and CPU ms.
 *
 *   node bench/lib/monitor-recheck-child.ts <crawlkit dist/index.js> <pages>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type * as crawlkit from 'crawlkit';

import { startChangingSite } from '../../fixtures/changing-site.ts';

const [entry, pagesArg] = process.argv.slice(2);
const { Crawlkit } = (await import(pathToFileURL(entry!).href)) as typeof crawlkit;
const day = Date.UTC(2026, 0, 1);
const site = await startChangingSite(
  Object.fromEntries(
    Array.from({ length: Number(pagesArg) }, (_, i) => [
      `/page-${i}.html`,
      {
        title: `Page ${i}`,
        text: `The text of page ${i}.\nA second paragraph, the same on every page.`,
        modifiedAt: day,
      },
    ]),
  ),
);
const dir = mkdtempSync(join(tmpdir(), 'ck-bench-recheck-'));
const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
const created = await ck.monitors.create({
  name: 'recheck',
  schedule: { cron: '0 0 1 1 *' },
  targets: [{ type: 'crawl', url: `${site.url}/`, crawlOptions: { sitemap: 'skip', limit: 10_000 } }],
});
if (!created.success) throw new Error(JSON.stringify(created));
const id = created.data.id;

async function check() {
  const run = await ck.monitors.run(id);
  if (!run.success) throw new Error(JSON.stringify(run));
  for (;;) {
    const detail = await ck.monitors.check(id, run.data.id, { limit: 1 });
    if (!detail.success) throw new Error(JSON.stringify(detail));
    if (detail.data.status !== 'running') return detail.data;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

await check();
site.resetCounts();
const cpu = process.cpuUsage();
const started = performance.now();
const second = await check();
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
console.log(
  JSON.stringify({
    full: sum(site.full),
    notModified: sum(site.notModified),
    same: second.summary.same,
    ms,
    cpuMs: (used.user + used.system) / 1000,
  }),
);
await ck.close();
await site.close();
rmSync(dir, { recursive: true, force: true });
