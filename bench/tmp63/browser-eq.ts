import { Crawlkit } from 'crawlkit';
import { startPageServer } from '/work/main/bench/lib/page-server.ts';
import { loadWcxbPages } from '/work/main/bench/lib/wcxb.ts';
const pages = loadWcxbPages('/work/shared/datasets/wcxb-dev', { every: Number(process.argv[2] ?? 30) });
const site = await startPageServer(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
const http = new Crawlkit({ store: 'memory', engine: 'http' });
const browser = new Crawlkit({ store: 'memory', engine: 'browser', timeoutMs: 30000, browser: { args: ['--no-sandbox'] } as never });
let same = 0;
const out: string[] = [];
for (const p of pages) {
  const req = { url: `${site.url}/${p.id}.html`, formats: ['markdown', 'links'] as never, maxAge: 0, blockAds: false };
  const a = await http.scrape(req);
  const b = await browser.scrape(req);
  if (!a.success || !b.success) { out.push(`${p.id} fail ${a.success ? '' : a.code} ${b.success ? '' : b.code} ${b.success ? '' : b.error}`); continue; }
  const am = a.data.markdown ?? '', bm = b.data.markdown ?? '';
  if (am === bm) { same++; continue; }
  const aw = new Set(am.split(/\s+/)), bw = new Set(bm.split(/\s+/));
  const onlyA = [...aw].filter((w) => !bw.has(w)), onlyB = [...bw].filter((w) => !aw.has(w));
  out.push(`${p.id} len ${am.length}/${bm.length} onlyHttp ${onlyA.length} ${onlyA.slice(0, 6).join(' ')} | onlyBrowser ${onlyB.length} ${onlyB.slice(0, 6).join(' ')} | warn ${b.data.warning?.slice(0, 80) ?? ''}`);
}
await http.close(); await browser.close(); await site.close();
console.log('same', same, 'of', pages.length);
for (const l of out) console.log(l.slice(0, 330));
