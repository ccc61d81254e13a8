/**
 * The main job on the bundled fixture site: serve it on 127.0.0.1, scrape one page, crawl the site, and write the
 * markdown to ./out/demo. Runs on the built packages (`pnpm build` first; setup.sh does it).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { Crawlkit } from 'crawlkit';

import { startFixtureServer } from '../fixtures/server.ts';

const outDir = resolve('out/demo');
const storeDir = resolve('out/demo-store');
rmSync(outDir, { recursive: true, force: true });
rmSync(storeDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const server = await startFixtureServer();
const ck = new Crawlkit({ storeDir });
try {
  console.log(`fixture site on ${server.url}`);

  const page = await ck.scrape({ url: `${server.url}/articles/first-post.html`, formats: ['markdown', 'links'] });
  if (!page.success) throw new Error(`scrape failed: ${page.error}`);
  writeFileSync(join(outDir, 'first-post.md'), page.data.markdown ?? '');
  console.log(
    `scraped "${String(page.data.metadata.title)}": ${page.data.markdown?.length ?? 0} chars of markdown, ${page.data.links?.length ?? 0} links`,
  );

  const crawl = await ck.crawl({ url: `${server.url}/`, limit: 20, crawlEntireDomain: true });
  if (!crawl.success) throw new Error(`crawl failed: ${crawl.error}`);
  let pages = 0;
  for await (const doc of ck.watch(crawl.id)) {
    const path = new URL(doc.metadata.sourceURL).pathname;
    const slug = path === '/' ? 'index' : path.replace(/^\/|\.html$/g, '').replace(/[^a-z0-9]+/gi, '-');
    writeFileSync(join(outDir, `crawl-${slug}.md`), doc.markdown ?? '');
    pages++;
  }
  const status = await ck.getCrawlStatus(crawl.id);
  if (!status.success) throw new Error(status.error);
  console.log(`crawled ${pages} pages (status ${status.status}, ${status.creditsUsed} credits)`);
  console.log(`markdown written to ${outDir}`);
  if (pages < 5) throw new Error('the demo crawl found too few pages');
} finally {
  await ck.close();
  await server.close();
}
