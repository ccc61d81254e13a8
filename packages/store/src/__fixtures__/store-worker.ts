/**
 * Child process of the SQLite multi-process tests. Usage:
 *   node --import ./ts-specifiers.ts store-worker.ts race <dir> <jobId> <seed> <pool> <limit>
 *   node --import ./ts-specifiers.ts store-worker.ts crawl <dir> <jobId> <seed> <total> [<stopAfter>]
 *   node --import ./ts-specifiers.ts store-worker.ts open <dir> <jobId> <seed>
 *   node --import ./ts-specifiers.ts store-worker.ts pages <dir> <jobId> <seed> <count> [unclosed]
 * Prints `ready` once the store is open and a JSON summary line when done; `crawl` also prints `completed <n>` after
 * each task it completes, so that the crash test can kill it at a point chosen in tasks rather than in time, and
 * with `stopAfter` it waits to be killed once it has completed that many. `pages` puts `count` page bodies of 300 KB
 * (keys `p<seed>-<i>`) once started, and with `unclosed` ends without closing the store.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createSqliteStore } from '../sqlite/sqlite-store.ts';
import { crawlTree, random, taskFor } from './work.ts';

const [mode, dir, jobId, seedText, ...rest] = process.argv.slice(2);
// `open` races other processes to create and migrate a brand-new store: start them together.
if (mode === 'open') await waitForGo();
// `pages` keeps every page it puts (it writes 300 KB bodies); the others write small ones under a tight cap.
const maxPageBytes = mode === 'pages' ? 1024 ** 3 : 2_000_000;
const store = await createSqliteStore({ dir: dir!, maxPageBytes, busyTimeoutMs: 20_000 });
const rand = random(Number(seedText));
if (mode !== 'open') process.stdout.write('ready\n');

/** Tasks a racer completes before it waits for the other racer to complete its first. */
const TOOK_PART_AFTER = 10;

if (mode === 'race') {
  const [pool, limit] = rest.map(Number) as [number, number];
  let otherTookPart = false;
  await waitForGo();
  const lease = await store.jobs.acquireLease(jobId!, `pid-${process.pid}`, 600_000);
  const order = Array.from({ length: pool }, (_, i) => i).sort(() => rand() - 0.5);
  const added: string[] = [];
  const completed: string[] = [];
  let duplicates = 0;
  for (;;) {
    if (order.length > 0) {
      const batch = order.splice(0, 1 + Math.floor(rand() * 30)).map((i) => taskFor(i, 1));
      added.push(...(await store.tasks.add(jobId!, batch, { limit })).map((t) => t.key));
    }
    // Both processes take part in the race whatever the scheduler does: past a few tasks, wait for the other's first.
    if (!otherTookPart && completed.length >= TOOK_PART_AFTER) otherTookPart = await waitForOther();
    const claimed = await store.tasks.claim(jobId!, 1 + Math.floor(rand() * 5));
    for (const task of claimed) {
      const outcome = await store.tasks.complete(jobId!, { key: task.key, credits: 1, document: `${task.key}` });
      if (outcome.duplicate) duplicates++;
      else if (completed.push(task.key) === 1) writeFileSync(`${dir}.took-part-${seedText}`, '');
      if (rand() < 0.2) {
        const again = await store.tasks.complete(jobId!, { key: task.key, credits: 1, document: 'again' });
        if (!again.duplicate) throw new Error(`second completion of ${task.key} was not a duplicate`);
      }
    }
    if (order.length === 0 && claimed.length === 0) {
      if (await idle()) break;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  process.stdout.write(`${JSON.stringify({ lease, added, completed, duplicates })}\n`);
} else if (mode === 'open') {
  const job = { kind: 'batch', status: 'scraping', request: '{}', createdAt: 1, updatedAt: 1, creditsUsed: 0 } as const;
  await store.jobs.create({ ...job, id: jobId! }, [taskFor(0, 0)]);
  process.stdout.write(`${JSON.stringify({ opened: true })}\n`);
} else if (mode === 'crawl') {
  const [total, stopAfter = Infinity] = rest.map(Number) as [number, number?];
  await store.tasks.requeueActive(jobId!);
  const completed = await crawlTree(store, jobId!, total, rand, async (n) => {
    process.stdout.write(`completed ${n}\n`);
    if (n >= stopAfter) await new Promise(() => setInterval(() => {}, 60_000));
  });
  process.stdout.write(`${JSON.stringify({ completed })}\n`);
} else if (mode === 'pages') {
  const [count] = rest.map(Number) as [number];
  await waitForGo();
  const body = new Uint8Array(300_000).fill(60);
  for (let i = 0; i < count; i++) {
    await store.pages.put({
      key: `p${seedText}-${i}`,
      url: `https://example.com/${i}`,
      cachedAt: 1,
      value: '{}',
      body,
    });
  }
  process.stdout.write(`${JSON.stringify({ put: count })}\n`);
}
if (rest.at(-1) !== 'unclosed') await store.close();

async function idle(): Promise<boolean> {
  const counts = await store.tasks.counts(jobId!);
  return counts.queued === 0 && counts.active === 0;
}

/** Returns once another racer of this store has completed a task (it wrote `<dir>.took-part-<seed>`). */
async function waitForOther(): Promise<true> {
  const prefix = `${basename(dir!)}.took-part-`;
  const others = () => readdirSync(dirname(dir!)).some((f) => f.startsWith(prefix) && f !== `${prefix}${seedText}`);
  while (!others()) await new Promise((r) => setTimeout(r, 2));
  return true;
}

/** Start together: the parent creates `<dir>.go` beside the store directory once every worker is ready. */
async function waitForGo(): Promise<void> {
  if (mode === 'open') process.stdout.write('ready\n');
  while (!existsSync(join(dir!, '..', `${basename(dir!)}.go`))) await new Promise((r) => setTimeout(r, 2));
}
