// Scrape every WCXB dev page through scrape() (markdown, links, images; main content) and tally the warnings.
import { Crawlkit } from 'crawlkit';
import { startPageServer } from '/work/main/bench/lib/page-server.ts';
import { loadWcxbPages } from '/work/main/bench/lib/wcxb.ts';

const pages = loadWcxbPages('/work/shared/datasets/wcxb-dev');
const server = await startPageServer(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const tally = new Map<string, string[]>();
let failed = 0;
const out: Record<string, unknown> = {};
const queue = [...pages];
async function run() {
  for (let p = queue.shift(); p; p = queue.shift()) {
    const r = await ck.scrape({ url: `${server.url}/${p.id}.html`, formats: ['markdown', 'links', 'images'], maxAge: 0 });
    if (!r.success) { failed++; out[p.id] = { error: r.code, msg: r.error }; continue; }
    const w = r.data.warning;
    if (w) {
      for (const part of w.split(/(?<=\.) (?=[A-Z])/)) {
        const key = part.replace(/https?:\/\/\S+/g, 'URL').replace(/\d+/g, 'N').slice(0, 90);
        tally.set(key, [...(tally.get(key) ?? []), p.id]);
      }
    }
    const md = r.data.markdown ?? '';
    const bad = ['[object Object]', 'undefined](', 'NaN'].filter((s) => md.includes(s));
    if (bad.length) out[p.id] = { bad };
  }
}
await Promise.all(Array.from({ length: 8 }, run));
await ck.close();
await server.close();
console.log('failed', failed);
for (const [k, ids] of [...tally].sort((a, b) => b[1].length - a[1].length)) console.log(ids.length, k, ids.slice(0, 6).join(','));
console.log(JSON.stringify(out, null, 0).slice(0, 3000));
