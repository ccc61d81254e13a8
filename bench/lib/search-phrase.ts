/**
 * One build's phrase queries over the search benchmark's corpus, for `bench/search.ts`'s phrase part (run in a child
 * process per build and driver, so that heaps and Redis memory are measured alone):
 *
 *   node bench/lib/search-phrase.ts <memory|redis> <corpus size> <rounds> [redis url]
 *   CK_BENCH_BUILD=<checkout>: that checkout's built `@crawlkit/store` and `@crawlkit/redis` (else this workspace's).
 *
 * Prints one JSON line: the index's size (the memory store's heap after a GC, or Redis's `used_memory`, each less
 * the same before the puts), and per query its wall and main-thread CPU times, the bytes Redis sent, and the hits
 * (URL, score, snippet) so that builds can be compared for identical answers. The Redis database is flushed first:
 * give it a server of its own.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type * as RedisModule from '@crawlkit/redis';
import type * as StoreModule from '@crawlkit/store';

import { searchCorpus, VOCABULARY } from './search-corpus.ts';

const [driver, size, rounds, redisUrl] = process.argv.slice(2);
const build = process.env['CK_BENCH_BUILD'];
const entry = (name: string) => (build ? join(build, 'packages', name, 'dist', 'index.js') : `@crawlkit/${name}`);
const storeModule = (await import(entry('store'))) as typeof StoreModule;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const corpus = searchCorpus(Number(size));
const [w1, w2, w3, w10, w100, w1000] = [0, 1, 2, 9, 99, 999].map((i) => VOCABULARY[i]!);
/** Phrase queries, and a loose word for comparison (no phrase: the same work in every build). */
const queries = [
  `"${w1} ${w2}"`, // common words: most pages hold both
  `"${w2} ${w1} ${w3}"`,
  `"${w10} ${w100}"`,
  `"${w100} ${w1000}"`, // rare together
  `"${w1} ${w1}"`, // a word repeated inside the phrase
  `${w10} -"${w1} ${w2}"`, // an excluded phrase
  `${w1}`, // a loose word in nearly every page
];

type Info = { used: number; sent: number };
let info: (() => Promise<Info>) | undefined;
let store: StoreModule.Store;
let closeInfo = async () => {};
gc();
const heapBefore = process.memoryUsage().heapUsed;
if (driver === 'redis') {
  const redis = (await import(entry('redis'))) as typeof RedisModule;
  // ioredis as @crawlkit/redis has it (the bench package does not depend on it).
  const require = createRequire(new URL('../../packages/redis/package.json', import.meta.url));
  const { Redis } = require(require.resolve('ioredis')) as {
    Redis: new (url: string) => { info(): Promise<string>; flushdb(): Promise<unknown>; quit(): Promise<unknown> };
  };
  const client = new Redis(redisUrl!);
  await client.flushdb();
  const field = (text: string, name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  info = async () => {
    const text = await client.info();
    return { used: field(text, 'used_memory'), sent: field(text, 'total_net_output_bytes') };
  };
  closeInfo = async () => void (await client.quit());
  store = await redis.createRedisStore({ url: redisUrl!, prefix: 'ck-bench-phrase', maxPageBytes: Infinity });
} else {
  store = storeModule.createMemoryStore({ maxPageBytes: Infinity });
}
const infoBefore = await info?.();
const value = 'x'.repeat(2_000);
const putStarted = performance.now();
for (const page of corpus) {
  const { key, url, title, description, text } = page;
  await store.pages.put({ key, url, cachedAt: 1_000, value, search: { url, title, description, text } });
}
const putSeconds = (performance.now() - putStarted) / 1_000;
gc();
const heapAfter = process.memoryUsage().heapUsed;
const infoAfter = await info?.();
// What one INFO answer adds to the bytes sent, taken off each query's count.
const infoCost = infoAfter ? (await info!()).sent - infoAfter.sent : 0;

const perQuery: Record<string, { wallMs: number[]; cpuMs: number[]; bytes: number[]; hits: unknown }> = {};
for (let round = 0; round < Number(rounds); round++) {
  for (const q of queries) {
    const parsed = storeModule.parseSearchQuery(q);
    if (!parsed.ok) throw new Error(parsed.error);
    const before = await info?.();
    const cpu = process.threadCpuUsage();
    const started = performance.now();
    const hits = await store.search!.search({ terms: parsed.terms, limit: 10 });
    const wallMs = performance.now() - started;
    const used = process.threadCpuUsage(cpu);
    const after = await info?.();
    const row = (perQuery[q] ??= { wallMs: [], cpuMs: [], bytes: [], hits: undefined });
    row.wallMs.push(wallMs);
    row.cpuMs.push((used.user + used.system) / 1_000);
    if (before && after) row.bytes.push(after.sent - before.sent - infoCost);
    row.hits = hits.map((h) => [h.url, h.score, h.snippet]);
  }
}
await store.close();
await closeInfo();
console.log(
  JSON.stringify({
    driver,
    build: build ?? 'this',
    putSeconds,
    indexBytes: infoBefore && infoAfter ? infoAfter.used - infoBefore.used : heapAfter - heapBefore,
    perQuery,
  }),
);
