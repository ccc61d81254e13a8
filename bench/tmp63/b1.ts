import { Crawlkit } from 'crawlkit';
import { startPageServer } from '/work/main/bench/lib/page-server.ts';
import { loadWcxbPages } from '/work/main/bench/lib/wcxb.ts';
const pages = loadWcxbPages('/work/shared/datasets/wcxb-dev', new Set([process.argv[2]!]));
const site = await startPageServer(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
const browser = new Crawlkit({ store: 'memory', engine: 'browser', timeoutMs: 30000 });
const b = await browser.scrape({ url: `${site.url}/${pages[0]!.id}.html`, formats: ['rawHtml', 'markdown'], maxAge: 0, onlyMainContent: false });
if (b.success) { const h = b.data.rawHtml ?? ''; console.log(h.length, JSON.stringify(h.slice(0, 300)), '...', JSON.stringify(h.slice(-600))); console.log(b.data.warning, b.data.metadata.statusCode, b.data.metadata.url); }
else console.log(b);
await browser.close(); await site.close();
