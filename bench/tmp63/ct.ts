import { Crawlkit } from 'crawlkit';
import { startPageServer } from '/work/main/bench/lib/page-server.ts';
import { loadWcxbPages } from '/work/main/bench/lib/wcxb.ts';
const pages = loadWcxbPages('/work/shared/datasets/wcxb-dev', { every: Number(process.argv[2] ?? 3) });
const server = await startPageServer(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const tally = new Map<string, string[]>();
const queue = [...pages];
async function run() {
  for (let p = queue.shift(); p; p = queue.shift()) {
    const req = { url: `${server.url}/${p.id}.html`, formats: ['markdown', { type: 'changeTracking' }] as never, maxAge: 0 };
    const a = await ck.scrape(req);
    const b = await ck.scrape(req);
    const key = !a.success || !b.success ? 'fail' : `${a.data.changeTracking?.changeStatus}->${b.data.changeTracking?.changeStatus}`;
    tally.set(key, [...(tally.get(key) ?? []), p.id]);
  }
}
await Promise.all(Array.from({ length: 8 }, run));
await ck.close(); await server.close();
for (const [k, ids] of tally) console.log(ids.length, k, ids.slice(0, 10).join(','));
