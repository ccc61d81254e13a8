/**
 * The floor under a new process's recrawl (issue 41): `pnpm build && node bench/recrawl-floor.ts [--quick]`.
 *
 * The bench/recrawl.ts site (300 pages with validators) is crawled once by crawlkit in a new process; then, in
 * alternating new processes on copies of that store:
 * - crawlkit's recrawl (`bench/recrawl.ts --child`): every page a 304, the change feed all `same`;
 * - a minimal recrawl that does only what cannot be left out, with the same libraries, cold: the sitemap read
 *   (a regular expression), and per page, 16 at a time, the cache entry's and its kept extraction's rows read from
 *   the store and their JSON parsed, a conditional GET on undici answered 304, the document built, and per turn one
 *   transaction that touches both rows and writes the documents as results;
 * - the same minimal recrawl without the store (the 300 conditional requests alone).
 * Each timed from its first statement after import to its end (the store closed), wall and CPU of the process. No
 * goal row: it shows where the floor is, beside crawlkit's figure in the same run. Then a few more crawlkit recrawls
 * with every SQLite call timed (`lib/sql-timing.ts`; not counted in the rows above): the store's statements, their
 * count and main-thread milliseconds per run (medians), and its commits.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import type * as Undici from 'undici';

import { startRecrawlSite } from './lib/recrawl-site.ts';
import { finish, isQuick, median, type Row } from './lib/report.ts';

const floorAt = process.argv.indexOf('--floor');
if (floorAt >= 0) {
  const [url, dir, withStore] = process.argv.slice(floorAt + 1);
  // undici is the fetcher's dependency, not the workspace root's.
  const fetcher = createRequire(fileURLToPath(import.meta.url)).resolve('../packages/fetcher/package.json');
  const { Agent } = (await import(createRequire(fetcher).resolve('undici'))) as typeof Undici;
  const cpu = process.cpuUsage();
  const mainCpu = process.threadCpuUsage();
  const started = performance.now();
  const agent = new Agent({ connections: 16 });
  const origin = new URL(url!).origin;
  const sitemap = await agent.request({ origin, path: '/sitemap.xml', method: 'GET' });
  const paths = [...(await sitemap.body.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  if (!paths.includes('/')) paths.unshift('/');
  // Without the store, the validators come from a file the parent wrote.
  const etags =
    withStore === '1' ? {} : (JSON.parse(readFileSync(join(dir!, 'etags.json'), 'utf8')) as Record<string, string>);
  const db = withStore === '1' ? new DatabaseSync(join(dir!, 'crawlkit.db')) : undefined;
  db?.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
  db?.exec('CREATE TABLE IF NOT EXISTS floor_results (seq INTEGER PRIMARY KEY, key TEXT, document TEXT)');
  // The keys' options part, and the kept extractions' settings digest: the same for every page of the crawl.
  const kept = db?.prepare("SELECT key FROM pages WHERE key LIKE '%|extraction=%' LIMIT 1").get() as
    { key: string } | undefined;
  const [, suffix = '', digest = ''] = kept?.key.match(/^[^|]*(\|.*)\|extraction=(.*)$/) ?? [];
  const read = db?.prepare('SELECT url, cached_at, value, body FROM pages WHERE key = ?');
  const touch = db?.prepare('UPDATE pages SET cached_at = ? WHERE key = ?');
  const insert = db?.prepare('INSERT INTO floor_results (key, document) VALUES (?, ?)');
  let batch: { key: string; document: string }[] = [];
  let committed: Promise<void> = Promise.resolve();
  const flush = () => {
    const done = batch;
    batch = [];
    db!.exec('BEGIN IMMEDIATE');
    const now = Date.now();
    for (const { key, document } of done) {
      touch!.run(now, key);
      touch!.run(now, `${key}|extraction=${digest}`);
      insert!.run(key, document);
    }
    db!.exec('COMMIT');
  };
  let same = 0;
  const page = async (path: string) => {
    // The cache key of the home page has no path.
    const key = `//${new URL(origin).host}${path === '/' ? '' : path}${suffix}`;
    const row = read?.get(key) as { value: string } | undefined;
    const head = row ? (JSON.parse(row.value.split('\n', 1)[0]!) as { headers: Record<string, string> }) : undefined;
    const etag = head?.headers['etag'] ?? etags[path] ?? '"none"';
    const response = await agent.request({ origin, path, method: 'GET', headers: { 'if-none-match': etag } });
    await response.body.dump();
    if (response.statusCode !== 304) return;
    same++;
    if (!db) return;
    const stored = read!.get(`${key}|extraction=${digest}`) as { value: string };
    const { extraction } = JSON.parse(stored.value) as { extraction: { markdown: string; metadata: object } };
    const document = JSON.stringify({ markdown: extraction.markdown, metadata: { ...extraction.metadata, url: key } });
    // A page is done once its batch commits (as a job's page is).
    if (batch.push({ key, document }) === 1) committed = new Promise((resolve) => setImmediate(() => resolve(flush())));
    await committed;
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < paths.length) await page(paths[next++]!);
    }),
  );
  db?.close();
  await agent.close();
  const used = process.cpuUsage(cpu);
  const mainUsed = process.threadCpuUsage(mainCpu);
  const ms = performance.now() - started;
  const cpuMs = (used.user + used.system) / 1000;
  console.log(JSON.stringify({ ms, cpuMs, mainCpuMs: (mainUsed.user + mainUsed.system) / 1000, same }));
  process.exit(0);
}

const quick = isQuick();
const PAGES = quick ? 60 : 300;
const PAIRS = quick ? 2 : 6;

const site = await startRecrawlSite(PAGES);
const url = `${site.url}/`;
const here = fileURLToPath(import.meta.url);
const recrawlScript = join(here, '..', 'recrawl.ts');

interface Child {
  ms: number;
  /** CPU of the process (every thread) and of its main thread alone. */
  cpuMs: number;
  mainCpuMs: number;
}
const child = async (args: string[], env?: NodeJS.ProcessEnv): Promise<Child> => {
  const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, ...args], { env });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Child;
};
const kinds = {
  'crawlkit recrawl': (dir: string) => child([recrawlScript, '--child', url, dir, String(PAGES)]),
  'floor: 304s and the store': (dir: string) => child([here, '--floor', url, dir, '1']),
  'floor: 304s alone': (dir: string) => child([here, '--floor', url, dir, '0']),
} as const;
type Kind = keyof typeof kinds;
const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
const cpuTimes = Object.fromEntries(Object.keys(kinds).map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
const mainCpuTimes = Object.fromEntries(Object.keys(kinds).map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
const notModified = Object.fromEntries(Object.keys(kinds).map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
const firstTimes: number[] = [];

const base = mkdtempSync(join(tmpdir(), 'ck-bench-floor-'));
const first = await child([recrawlScript, '--child', url, base, String(PAGES)]);
firstTimes.push(first.ms);
/** Each page's `ETag` as the first crawl stored it, by path. */
const etags: Record<string, string> = {};
{
  const db = new DatabaseSync(join(base, 'crawlkit.db'), { readOnly: true });
  for (const { value } of db.prepare("SELECT value FROM pages WHERE key NOT LIKE '%|extraction=%'").all() as {
    value: string;
  }[]) {
    const head = JSON.parse(value.split('\n', 1)[0]!) as { url: string; headers: Record<string, string> };
    if (head.headers['etag']) etags[new URL(head.url).pathname] = head.headers['etag'];
  }
  db.close();
}
for (let pair = 0; pair < PAIRS; pair++) {
  const order = Object.keys(kinds) as Kind[];
  if (pair % 2) order.reverse();
  for (const kind of order) {
    const dir = mkdtempSync(join(tmpdir(), 'ck-bench-floor-'));
    copyFileSync(join(base, 'crawlkit.db'), join(dir, 'crawlkit.db'));
    writeFileSync(join(dir, 'etags.json'), JSON.stringify(etags));
    site.resetCounts();
    const run = await kinds[kind](dir);
    times[kind].push(run.ms);
    cpuTimes[kind].push(run.cpuMs);
    mainCpuTimes[kind].push(run.mainCpuMs);
    notModified[kind].push([...site.notModified.values()].reduce((a, b) => a + b, 0));
    rmSync(dir, { recursive: true, force: true });
  }
}
/** Per SQL text, its count and main-thread ms in each timed run, for crawlkit's recrawl and the floor's. */
const timedKinds = ['crawlkit recrawl', 'floor: 304s and the store'] as const;
const sqlRuns = new Map(timedKinds.map((kind) => [kind, [] as Map<string, { count: number; ms: number }>[]]));
for (let run = 0; run < (quick ? 1 : 3); run++) {
  for (const kind of timedKinds) {
    const dir = mkdtempSync(join(tmpdir(), 'ck-bench-floor-'));
    copyFileSync(join(base, 'crawlkit.db'), join(dir, 'crawlkit.db'));
    const out = join(dir, 'sql.json');
    const timing = join(here, '..', 'lib', 'sql-timing.ts');
    const args =
      kind === 'crawlkit recrawl'
        ? [recrawlScript, '--child', url, dir, String(PAGES)]
        : [here, '--floor', url, dir, '1'];
    await child(['--import', timing, ...args], { ...process.env, CK_SQL_TIMING: out });
    const rows = JSON.parse(readFileSync(out, 'utf8')) as [string, number, number][];
    sqlRuns.get(kind)!.push(new Map(rows.map(([sql, count, ms]) => [sql, { count, ms }])));
    rmSync(dir, { recursive: true, force: true });
  }
}
rmSync(base, { recursive: true, force: true });
await site.close();
const sqlOf = (kind: (typeof timedKinds)[number]) => {
  const runs = sqlRuns.get(kind)!;
  const texts = [...new Set(runs.flatMap((run) => [...run.keys()]))];
  const at = (sql: string, field: 'count' | 'ms') => median(runs.map((run) => run.get(sql)?.[field] ?? 0));
  const statements = texts
    .map((sql) => ({ sql, count: at(sql, 'count'), ms: at(sql, 'ms') }))
    .sort((a, b) => b.ms - a.ms);
  const totalMs = median(runs.map((run) => [...run.values()].reduce((sum, { ms }) => sum + ms, 0)));
  return { totalMs, commits: at('COMMIT', 'count'), statements };
};
const sql = Object.fromEntries(timedKinds.map((kind) => [kind, sqlOf(kind)]));
const sqlNotes = timedKinds.flatMap((kind) => {
  const { totalMs, commits, statements } = sql[kind]!;
  return [
    `${kind}, every SQLite call timed (${sqlRuns.get(kind)!.length} more runs, medians): ${totalMs.toFixed(1)} ms ` +
      `of the main thread in SQLite, ${commits} commits; the top statements:`,
    ...statements
      .slice(0, kind === 'crawlkit recrawl' ? 12 : 5)
      .map(
        ({ sql, count, ms }) => `  ${ms.toFixed(1).padStart(6)} ms ${String(count).padStart(5)}x  ${sql.slice(0, 90)}`,
      ),
  ];
});

const crawlkitMs = median(times['crawlkit recrawl']);
const rows: Row[] = (Object.keys(kinds) as Kind[]).map((kind) => ({
  run: kind,
  'median ms': Math.round(median(times[kind])),
  'vs crawlkit': Math.round((median(times[kind]) / crawlkitMs) * 1000) / 10,
  'cpu ms': Math.round(median(cpuTimes[kind])),
  'main thread cpu ms': Math.round(median(mainCpuTimes[kind])),
  '304s': median(notModified[kind]),
}));
finish({
  name: 'recrawl-floor',
  title: `a new process's recrawl of an unchanged ${PAGES}-page site beside the least it can cost (${PAIRS} alternating rounds)`,
  quick,
  columns: ['run', 'median ms', 'vs crawlkit', 'cpu ms', 'main thread cpu ms', '304s'],
  rows,
  goals: [],
  data: {
    times,
    cpuTimes,
    mainCpuTimes,
    notModified,
    firstCrawlMs: firstTimes,
    pages: PAGES,
    pairs: PAIRS,
    sql,
  },
  notes: [`first crawl in a new process (once, to make the store): ${Math.round(first.ms)} ms`, ...sqlNotes],
});
