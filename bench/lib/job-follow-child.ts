/**
 * One measurement of `bench/job-follow.ts`, in a process of its own: `count` running job records (`kind`, each
 * request padded to `kb` KiB) in a fresh Redis, each followed by the crawlkit build `entry`: to its end by `waitForJob`
 * (`wait`: what `serve --redis` does for the jobs it accepts, to log their end), or page by page by `watch` (`watch`:
 * the job WebSocket, the CLI's `crawl` and `batch` printing pages). No worker runs them, so every follower stays: the
 * CPU of this process and of redis-server over `seconds`, after 2 s of settling, is the cost of following them.
 * Prints one JSON line.
 *
 *   node bench/lib/job-follow-child.ts <crawlkit dist/index.js> <count> <crawl|batch> <kb> <wait|watch> <seconds>
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type * as crawlkit from 'crawlkit';
import type * as crawlkitRedis from '@crawlkit/redis';

import { startRedisServer } from '../../test/setup/redis.ts';

const [entry, countArg, kind, kbArg, follow, secondsArg] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  'wait' | 'watch',
  string,
];
const { Crawlkit } = (await import(entry)) as typeof crawlkit;
const { redis, createRedisStore } = (await import(
  join(dirname(entry), '../../redis/dist/index.js')
)) as typeof crawlkitRedis;

/** CPU ms of a process so far, from /proc (user and system, in clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const server = await startRedisServer();
if (!server) throw new Error('no redis-server to run against: install redis-server');
const prefix = `follow-${randomUUID()}`;
const store = await createRedisStore({ url: server.url, prefix });
const pad = 'x'.repeat(Number(kbArg) * 1024);
const now = Date.now();
const ids = Array.from({ length: Number(countArg) }, () => randomUUID());
const request = JSON.stringify(kind === 'batch' ? { urls: ['http://a.test/'], pad } : { url: 'http://a.test/', pad });
const record = (id: string) => ({
  id,
  kind: kind as 'crawl' | 'batch',
  status: 'scraping' as const,
  request,
  createdAt: now,
  updatedAt: now,
  creditsUsed: 0,
});
// Created 100 at a time: one by one, 2,000 records took longer than the measure.
for (let from = 0; from < ids.length; from += 100) {
  await Promise.all(ids.slice(from, from + 100).map((id) => store.jobs.create(record(id), [])));
}
const ck = new Crawlkit({ backend: redis({ url: server.url, prefix }) });
const stop = new AbortController();
async function watchAll(id: string): Promise<void> {
  for await (const _document of ck.watch(id, { signal: stop.signal }));
}
const waits = ids.map((id) =>
  (follow === 'watch' ? watchAll(id) : ck.waitForJob(id, { documents: false, signal: stop.signal })).catch(
    () => undefined,
  ),
);
await sleep(2_000);
const [cpu0, redis0, t0] = [process.cpuUsage(), cpuMsOf(server.pid), performance.now()];
await sleep(Number(secondsArg) * 1000);
const cpu = process.cpuUsage(cpu0);
const wallMs = performance.now() - t0;
const redisMs = cpuMsOf(server.pid) - redis0;
stop.abort();
await Promise.all(waits);
await ck.close();
await store.close();
await server.stop();
console.log(
  JSON.stringify({
    processPct: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
    redisPct: (redisMs / wallMs) * 100,
  }),
);
