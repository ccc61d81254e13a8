/**
 * List the URLs of a site (sitemaps and links, nothing scraped), ranked by a search.
 *
 *   pnpm build
 *   pnpm exec node examples/map.ts                              # the bundled fixture site, offline
 *   pnpm exec node examples/map.ts https://example.com pricing
 */
import { Crawlkit } from 'crawlkit';

import { startFixtureServer } from '../fixtures/server.ts';

const site = process.argv[2] ? undefined : await startFixtureServer();
const url = process.argv[2] ?? `${site!.url}/`;
const search = process.argv[3] ?? (site ? 'getting started' : undefined);

const ck = new Crawlkit({ store: 'memory' });
const map = await ck.map({ url, ...(search ? { search } : {}), limit: 20 });
if (map.success) for (const link of map.links) console.log(link.url, link.title ?? '');
else console.error(`${map.code}: ${map.error}`);
await ck.close();
await site?.close();
