// The same pages through the function API and through serve + firecrawl-js: the documents must agree.
import Firecrawl from '@mendable/firecrawl-js';
import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { startPageServer } from '/work/main/bench/lib/page-server.ts';
import { loadWcxbPages } from '/work/main/bench/lib/wcxb.ts';

const pages = loadWcxbPages('/work/shared/datasets/wcxb-dev', { every: Number(process.argv[2] ?? 5) });
const site = await startPageServer(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const server = await startServer({ port: 0, crawlkit: ck, logger: { debug() {}, info() {}, warn() {}, error() {} } });
const fc = new Firecrawl({ apiKey: 'fc-x', apiUrl: server.url });
const formats = ['markdown', 'html', 'rawHtml', 'links', 'images'] as const;
const diffs = new Map<string, string[]>();
const strip = (d: Record<string, unknown>) => {
  const m = { ...(d.metadata as Record<string, unknown>) };
  for (const k of ['scrapeId', 'cacheState', 'cachedAt', 'creditsUsed', 'proxyUsed', 'concurrencyLimited', 'concurrencyQueueDurationMs', 'timezone', 'indexId']) delete m[k];
  return { ...d, metadata: m };
};
const queue = [...pages];
async function run() {
  for (let p = queue.shift(); p; p = queue.shift()) {
    const url = `${site.url}/${p.id}.html`;
    const a = await ck.scrape({ url, formats: [...formats], maxAge: 0 });
    const b = (await fc.scrape(url, { formats: [...formats], maxAge: 0 })) as unknown as Record<string, unknown>;
    if (!a.success) { diffs.set('fn fail', [...(diffs.get('fn fail') ?? []), p.id]); continue; }
    const A = strip(a.data as never);
    const B = strip(b);
    const keys = new Set([...Object.keys(A), ...Object.keys(B)]);
    for (const k of keys) {
      if (k === 'metadata') {
        const mk = new Set([...Object.keys(A.metadata), ...Object.keys(B.metadata)]);
        for (const x of mk) if (JSON.stringify(A.metadata[x]) !== JSON.stringify(B.metadata[x])) {
          const key = `metadata.${x}`; diffs.set(key, [...(diffs.get(key) ?? []), `${p.id}:${JSON.stringify(A.metadata[x])?.slice(0, 60)} vs ${JSON.stringify(B.metadata[x])?.slice(0, 60)}`]);
        }
      } else if (JSON.stringify((A as never)[k]) !== JSON.stringify((B as never)[k])) diffs.set(k, [...(diffs.get(k) ?? []), p.id]);
    }
  }
}
await Promise.all(Array.from({ length: 6 }, run));
await server.close(); await ck.close(); await site.close();
for (const [k, ids] of diffs) console.log(ids.length, k, ids.slice(0, 4).join(' | '));
console.log('pages', pages.length);
