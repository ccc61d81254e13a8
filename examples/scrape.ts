/**
 * Scrape one page into markdown and links.
 *
 *   pnpm build
 *   pnpm exec node examples/scrape.ts                       # the bundled fixture site, offline
 *   pnpm exec node examples/scrape.ts https://example.com   # any page
 */
import { Crawlkit } from 'crawlkit';

import { startFixtureServer } from '../fixtures/server.ts';

const site = process.argv[2] ? undefined : await startFixtureServer();
const url = process.argv[2] ?? `${site!.url}/articles/first-post.html`;

const ck = new Crawlkit({ store: 'memory' });
const page = await ck.scrape({ url, formats: ['markdown', 'links'] });
if (page.success) {
  console.log(page.data.metadata.title, `(${page.data.links?.length ?? 0} links)\n`);
  console.log(page.data.markdown);
} else {
  console.error(`${page.code}: ${page.error}`);
  process.exitCode = 1;
}
await ck.close();
await site?.close();
