// Memory of a long-lived embedded engine (mem40): one `new Crawlkit()` (on-disk store, HTTP engine, default worker
// pool) given `scrape()` after `scrape()`, one at a time as an app's loop would, each run in a child process of its
// own (bench/lib/embedded-memory-child.ts), sampled every `--every` scrapes after full collections of every heap:
// RSS, `process.memoryUsage()`, the main thread's V8 heap by space, and each extraction worker's heap.
// - cache on: the fixture site's 12 pages again and again (after the first round every scrape is a cache hit);
// - cache off: the same with `maxAge: 0` (every scrape fetched, extracted in a worker, stored);
// - cache off, semi-space 4: the same, the process under `--max-semi-space-size=4` (the README's small setting);
// - `--wcxb`: also cache off on the WCXB dev pages (real pages, 1-2,000 KB), served by a process of their own.
//
//   pnpm bench:embedded-memory [--scrapes N] [--every N] [--wcxb] [--only NAME ...]
// Writes bench/results/embedded-memory.json. Data (--wcxb): WCXB v1.0 by Murrough Foley, CC-BY-4.0.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { startFixtureServer, SITE_ROOT } from '../fixtures/server.ts';
import { numberOption } from './lib/ab-builds.ts';
import type { EmbeddedSample } from './lib/embedded-memory-child.ts';
import { startPageServerProcess } from './lib/page-server-process.ts';
import { finish, isQuick, type Row } from './lib/report.ts';
import { loadWcxbPages } from './lib/wcxb.ts';

const args = process.argv.slice(2);
const quick = isQuick(args);
const SCRAPES = numberOption('--scrapes', quick ? 1000 : 5000, args);
const EVERY = numberOption('--every', quick ? 250 : 500, args);
// --only NAME (repeatable): those settings alone.
const only = args.flatMap((arg, i) => (arg === '--only' ? [args[i + 1]!] : []));
const CHILD = join(import.meta.dirname, 'lib', 'embedded-memory-child.ts');

interface Setting {
  name: string;
  base: string;
  paths: string[];
  maxAge?: number;
  env?: Record<string, string>;
}

const fixtures = await startFixtureServer();
// The fixture site's HTML pages that the HTTP engine scrapes as they are (not its error page, not its JS pages).
const sitePages = (readdirSync(SITE_ROOT, { recursive: true }) as string[])
  .filter((p) => p.endsWith('.html') && !p.startsWith('js') && p !== '404.html')
  .map((p) => `/${p}`)
  .sort();
const settings: Setting[] = [
  { name: 'cache on', base: fixtures.url, paths: sitePages },
  { name: 'cache off', base: fixtures.url, paths: sitePages, maxAge: 0 },
  {
    name: 'cache off, semi-space 4',
    base: fixtures.url,
    paths: sitePages,
    maxAge: 0,
    env: { NODE_OPTIONS: '--max-semi-space-size=4' },
  },
];
const wcxb = args.includes('--wcxb')
  ? await (async () => {
      const root = process.env['CK_DATASETS'] ?? join(import.meta.dirname, '../../shared/datasets');
      const pages = loadWcxbPages(join(root, 'wcxb-dev'));
      const server = await startPageServerProcess(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
      settings.push({
        name: 'cache off, WCXB pages',
        base: server.url,
        paths: pages.map((p) => `/${p.id}.html`),
        maxAge: 0,
      });
      return server;
    })()
  : undefined;

/** Runs a setting in a child; one JSON line a sample. */
function runChild(setting: Setting): Promise<EmbeddedSample[]> {
  const options = setting.maxAge === undefined ? {} : { maxAge: setting.maxAge };
  const argv = [CHILD, setting.base, setting.paths.join(','), String(SCRAPES), String(EVERY), JSON.stringify(options)];
  const child = spawn(process.execPath, ['--expose-gc', ...argv], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...setting.env },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += String(d)));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(
            out
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as EmbeddedSample),
          )
        : reject(new Error(`${setting.name}: exit ${code}`)),
    ),
  );
}

const rows: Row[] = [];
const runs: Record<string, EmbeddedSample[]> = {};
for (const setting of settings) {
  if (only.length > 0 && !only.includes(setting.name)) continue;
  const samples = await runChild(setting);
  runs[setting.name] = samples;
  for (const s of samples) {
    rows.push({
      run: setting.name,
      scrapes: s.scrapes,
      s: s.seconds,
      RSS: s.rss,
      'main heap (used)': `${s.mainHeap} (${s.heapUsed})`,
      'main new space': s.mainSpaces['new'] ?? null,
      external: s.external,
      arrayBuffers: s.arrayBuffers,
      'workers heap (used)': `${s.workersHeap.join('/')} (${s.workersUsed.join('/')})`,
      'malloc brk + arenas': `${s.maps['brk heap']} + ${s.maps['arena heaps']}`,
      failed: s.failed,
    });
  }
  const last = samples.at(-1)!;
  console.log(
    `  ${setting.name}: ${last.scrapes} scrapes in ${last.seconds} s, RSS ${samples[0]!.rss} → ${last.rss} MiB`,
  );
}
await fixtures.close();
await wcxb?.close();

finish({
  name: 'embedded-memory',
  title: `Memory of a long-lived embedded engine: ${SCRAPES} scrape() calls one at a time, MiB every ${EVERY}`,
  quick,
  columns: [
    'run',
    'scrapes',
    's',
    'RSS',
    'main heap (used)',
    'main new space',
    'external',
    'arrayBuffers',
    'workers heap (used)',
    'malloc brk + arenas',
    'failed',
  ],
  rows,
  goals: [],
  notes: [
    "Each sample after full collections (main thread: gc(); workers: a heap snapshot). Heaps: V8's physical pages,",
    "'used' what is live. 'main new space': the young generation's pages, which V8 grows with the allocation rate",
    '(up to 3 semi-spaces of --max-semi-space-size) and keeps. external/arrayBuffers: process.memoryUsage().',
  ],
  data: { scrapes: SCRAPES, every: EVERY, runs },
});
