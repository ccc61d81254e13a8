import { Crawlkit } from 'crawlkit';
import { startPageServer } from '/work/main/bench/lib/page-server.ts';
import { loadWcxbPages } from '/work/main/bench/lib/wcxb.ts';

const pages = loadWcxbPages('/work/shared/datasets/wcxb-dev', { every: Number(process.argv[2] ?? 1) });
const server = await startPageServer(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const issues = new Map<string, string[]>();
const note = (k: string, id: string) => issues.set(k, [...(issues.get(k) ?? []), id]);
const queue = [...pages];
async function run() {
  for (let p = queue.shift(); p; p = queue.shift()) {
    for (const only of [true, false]) {
      const r = await ck.scrape({ url: `${server.url}/${p.id}.html`, formats: ['markdown', 'html', 'links', 'images'], onlyMainContent: only, maxAge: 0 });
      if (!r.success) { note(`fail ${r.code}`, p.id); continue; }
      const d = r.data;
      for (const l of d.links ?? []) if (!/^https?:\/\//.test(l)) note(`link not http ${only}`, p.id);
      for (const l of d.images ?? []) if (!/^(https?:\/\/|data:)/.test(l)) note(`image not http ${only}: ${l.slice(0, 40)}`, p.id);
      if (new Set(d.links).size !== d.links?.length) note(`dup links ${only}`, p.id);
      if ((d.markdown ?? '').trim() && !(d.html ?? '').trim()) note(`md but no html ${only}`, p.id);
      const md = d.markdown ?? '';
      if (/\[object Object\]|\bundefined\]\(|\(undefined\)/.test(md)) note(`bad token ${only}`, p.id);
      if (/\]\(\s*\)/.test(md)) note(`empty link target ${only}`, p.id);
      if (/!\[[^\]]*\]\((?!https?:|data:)[^)]/.test(md)) note(`relative image md ${only}`, p.id);
      if (/\]\((?!https?:|mailto:|tel:|#|data:)[a-z]+:/.test(md)) note(`odd scheme link ${only}: ${/\]\((?!https?:|mailto:|tel:|#|data:)([a-z]+):/.exec(md)?.[1]}`, p.id);
      if (/\n{4,}/.test(md)) note(`4+ newlines ${only}`, p.id);
      if (/[ \t]+$/m.test(md.replace(/```[\s\S]*?```/g, ''))) note(`trailing spaces ${only}`, p.id);
      if (/&(amp|lt|gt|quot|nbsp|#\d+);/.test(md.replace(/```[\s\S]*?```|`[^`\n]*`/g, ''))) note(`entity in md ${only}`, p.id);
      if (typeof d.metadata.title !== 'string' || !d.metadata.title) note(`no title`, p.id);
      for (const [k, v] of Object.entries(d.metadata)) if (typeof v === 'string' && /\[object Object\]/.test(v)) note(`meta object ${k}`, p.id);
    }
  }
}
await Promise.all(Array.from({ length: 8 }, run));
await ck.close();
await server.close();
for (const [k, ids] of [...issues].sort((a, b) => b[1].length - a[1].length)) console.log(ids.length, k, [...new Set(ids)].slice(0, 8).join(','));
