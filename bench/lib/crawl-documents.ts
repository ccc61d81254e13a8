/**
 * One crawlkit crawl of a static site, for comparing builds: prints the crawl's wall time, the process's CPU time and
 * the main thread's, and with `--out FILE` writes every document (one JSON line each, sorted by URL, the fields that
 * change from run to run dropped and the site's address replaced by `SITE`), so that `cmp` says whether a change kept
 * the crawl's output byte-identical.
 *
 *   node bench/lib/crawl-documents.ts [--root DIR] [--out FILE]   (AB_WORKERS=N sets the worker pool's size)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';

import { startSiteProcess } from './crawl-runners.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
/** Metadata that differs between two crawls of the same pages. */
const VOLATILE = ['scrapeId', 'cachedAt', 'timestamp', 'elapsedMs', 'proxyUsed', 'creditsUsed', 'cacheState'];

const site = await startSiteProcess(join(import.meta.dirname, 'static-site.ts'), [
  '--root',
  arg('--root', '/usr/share/doc/python3.11/html'),
]);
const dir = mkdtempSync(join(tmpdir(), 'ck-crawl-documents-'));
const workers = process.env['AB_WORKERS'];
const ck = new Crawlkit({
  storeDir: dir,
  engine: 'http',
  concurrency: 16,
  ...(workers ? { workers: { size: Number(workers) } } : {}),
});
const cpu = process.cpuUsage();
const thread = process.threadCpuUsage();
const started = performance.now();
const response = await ck.crawl({ url: `${site.url}/`, limit: 1000, scrapeOptions: { formats: ['markdown'] } });
if (!response.success) throw new Error(response.error);
const lines: { url: string; line: string }[] = [];
for await (const doc of ck.watch(response.id)) {
  const metadata: Record<string, unknown> = { ...doc.metadata };
  for (const key of VOLATILE) delete metadata[key];
  const line = JSON.stringify({ ...doc, metadata }).replaceAll(site.url, 'SITE');
  lines.push({ url: String(doc.metadata.url ?? doc.metadata.sourceURL), line });
}
const seconds = (ms: number) => Math.round(ms / 1e4) / 100;
const used = process.cpuUsage(cpu);
const main = process.threadCpuUsage(thread);
const out = arg('--out', '');
if (out) {
  lines.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  writeFileSync(out, `${lines.map((l) => l.line).join('\n')}\n`);
}
console.log(
  JSON.stringify({
    pages: lines.length,
    wallSeconds: Math.round(performance.now() - started) / 1000,
    cpuSeconds: seconds(used.user + used.system),
    mainThreadCpuSeconds: seconds(main.user + main.system),
  }),
);
await ck.close();
site.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
