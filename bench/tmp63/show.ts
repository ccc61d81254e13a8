import { Crawlkit } from 'crawlkit';
import { startPageServer } from '/work/main/bench/lib/page-server.ts';
import { loadWcxbPages } from '/work/main/bench/lib/wcxb.ts';
const [id, onlyArg, pattern] = process.argv.slice(2);
const pages = loadWcxbPages('/work/shared/datasets/wcxb-dev', new Set([id!]));
const server = await startPageServer(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const r = await ck.scrape({ url: `${server.url}/${id}.html`, formats: ['markdown', 'links', 'images'], onlyMainContent: onlyArg === 'true', maxAge: 0 });
if (r.success) {
  const re = new RegExp(pattern!, 'g');
  const md = r.data.markdown ?? '';
  for (const m of md.matchAll(re)) console.log('MD:', JSON.stringify(md.slice(Math.max(0, m.index! - 80), m.index! + 120)));
  for (const l of [...(r.data.links ?? []), ...(r.data.images ?? [])]) if (re.test(l)) console.log('URL:', l);
  for (const [k, v] of Object.entries(r.data.metadata)) if (re.test(String(v))) console.log('META:', k, JSON.stringify(v).slice(0, 200));
}
await ck.close(); await server.close();
