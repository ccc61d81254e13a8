import { Crawlkit } from 'crawlkit';
import { startPageServer } from '/work/main/bench/lib/page-server.ts';
import { loadWcxbPages } from '/work/main/bench/lib/wcxb.ts';
const ids = process.argv.slice(2);
const pages = loadWcxbPages('/work/shared/datasets/wcxb-dev', new Set(ids));
const server = await startPageServer(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
for (const p of pages) {
  const r = await ck.scrape({ url: `${server.url}/${p.id}.html`, formats: ['markdown'], maxAge: 0 });
  console.log('==', p.id, JSON.stringify(r.success ? { md: r.data.markdown?.slice(0, 300), w: r.data.warning, t: r.data.metadata.title } : r));
}
await ck.close(); await server.close();
