// Scratch: one crawlkit crawl of a static site; prints wall, process CPU, main-thread CPU; writes the documents
// (volatile fields dropped) to --out for a byte comparison between builds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawlkit } from 'crawlkit';
import { startSiteProcess } from './crawl-runners.ts';

const arg = (n: string, d: string) => (process.argv.includes(n) ? process.argv[process.argv.indexOf(n) + 1]! : d);
const site = await startSiteProcess(join(import.meta.dirname, 'static-site.ts'), ['--root', arg('--root', '/usr/share/doc/python3.11/html')]);
const dir = mkdtempSync(join(tmpdir(), 'ck-ab-'));
const ck = new Crawlkit({ storeDir: dir, engine: 'http', concurrency: 16 });
const cpu0 = process.cpuUsage();
const th0 = (process as any).threadCpuUsage();
const t0 = performance.now();
const r = await ck.crawl({ url: `${site.url}/`, limit: 1000, scrapeOptions: { formats: ['markdown'] } });
if (!r.success) throw new Error(r.error);
const docs: any[] = [];
for await (const d of ck.watch(r.id)) docs.push(d);
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const th = (process as any).threadCpuUsage(th0);
const strip = (d: any) => {
  const m = { ...d.metadata };
  for (const k of ['scrapeId', 'cachedAt', 'timestamp', 'elapsedMs', 'proxyUsed', 'creditsUsed', 'cacheState']) delete m[k];
  return { ...d, metadata: JSON.parse(JSON.stringify(m).replaceAll(site.url, 'SITE')) , markdown: d.markdown?.replaceAll(site.url, 'SITE') };
};
const out = arg('--out', '');
if (out) writeFileSync(out, docs.map(strip).sort((a, b) => (a.metadata.url < b.metadata.url ? -1 : 1)).map((d) => JSON.stringify(d)).join('\n'));
console.log(JSON.stringify({ pages: docs.length, wall: +wall.toFixed(2), cpu: +((cpu.user + cpu.system) / 1e6).toFixed(2), main: +((th.user + th.system) / 1e6).toFixed(2) }));
await ck.close();
site.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
