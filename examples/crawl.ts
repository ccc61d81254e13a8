/**
 * Crawl a site and print each page as it is stored, with progress events; Ctrl-C stops cleanly and the job stays
 * resumable in the store (`crawlkit resume <id>`).
 *
 *   pnpm build
 *   pnpm exec node examples/crawl.ts                            # the bundled fixture site, offline
 *   pnpm exec node examples/crawl.ts https://example.com/docs 50
 */
import { Crawlkit } from 'crawlkit';

import { startFixtureServer } from '../fixtures/server.ts';

const site = process.argv[2] ? undefined : await startFixtureServer();
const url = process.argv[2] ?? `${site!.url}/`;
const limit = Number(process.argv[3] ?? 10);

const ck = new Crawlkit({ storeDir: './.crawlkit' });
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

ck.on('progress', ({ completed, total }) => console.error(`  ${completed}/${total} pages`));
ck.on('error', ({ url: failed, error }) => console.error(`  failed: ${failed}: ${error.error}`));

const crawl = await ck.crawl({ url, limit, crawlEntireDomain: true, scrapeOptions: { formats: ['markdown'] } });
if (!crawl.success) throw new Error(crawl.error);
try {
  for await (const doc of ck.watch(crawl.id, { signal: controller.signal })) {
    console.log(`${doc.metadata.sourceURL}: ${doc.markdown?.length ?? 0} chars`);
  }
  const status = await ck.getCrawlStatus(crawl.id);
  if (status.success) console.log(`${status.status}: ${status.completed}/${status.total} pages`);
} catch (error) {
  if (!controller.signal.aborted) throw error;
  console.log(`interrupted; resume with: pnpm crawlkit resume ${crawl.id}`);
} finally {
  await ck.close();
  await site?.close();
}
