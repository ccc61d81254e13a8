/**
 * Batch-scrape a list of URLs and wait for all of them.
 *
 *   pnpm build
 *   pnpm exec node examples/batch.ts                                      # the bundled fixture site, offline
 *   pnpm exec node examples/batch.ts https://example.com https://example.org
 */
import { Crawlkit } from 'crawlkit';

import { startFixtureServer } from '../fixtures/server.ts';

const site = process.argv.length > 2 ? undefined : await startFixtureServer();
const urls = site
  ? ['/articles/first-post.html', '/docs/getting-started.html', '/products/widget.html'].map((p) => `${site.url}${p}`)
  : process.argv.slice(2);

const ck = new Crawlkit({ store: 'memory' });
const batch = await ck.batchScrape({ urls, formats: ['markdown'], onlyMainContent: true });
if (!batch.success) throw new Error(batch.error);
const result = await ck.waitForJob(batch.id);
if (result.success) {
  for (const doc of result.data)
    console.log(`${doc.metadata.statusCode} ${doc.metadata.sourceURL}: ${doc.metadata.title}`);
  console.log(`${result.status}, ${result.creditsUsed} credits`);
}
await ck.close();
await site?.close();
