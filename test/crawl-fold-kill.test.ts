/**
 * A crawl killed with `kill -9` between a copy's claim and its completion (`docs/qa-fold-by-content.md` Left 5): a
 * page naming a canonical records its main content's hash under the canonical's key (`TaskStore.claimAlias`) before
 * its task is done. The resumed crawl fetches the same text again and finds its own claim: it must not fold into it
 * (the claim's `by` is its own key), and the canonical, fetched after it, folds into the copy, so the crawl ends with
 * one document for each canonical. The kill lands in that window every time: a trigger the test adds to the store's
 * SQLite refuses any change of that copy's task state, the test waits for its claim to be committed and kills the
 * process then; the trigger is dropped before the resume. (Taking SQLite's write lock once the claim was seen lost
 * the race on two shared cores: claim and completion went in between two of the test's looks, run after run.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

import { Crawlkit, type JobStatusResponse } from 'crawlkit';
import { afterAll, beforeAll, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt } from './cli-helpers.ts';
import { startRouteSite } from './helpers/route-site.ts';

const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));
/** Pairs of a copy and its canonical: the first copy's process is killed at its claim, the second runs through. */
const PAIRS = 2;
const copies = Array.from({ length: PAIRS }, (_, i) => `/fk/copy/${i + 1}`);

let site: FixtureServer;
let root: string;
let storeDir: string;
/** Fetches per page path. */
const fetches = new Map<string, number>();
/** The crawl's first process, killed at the first copy's claim. */
let first: ChildProcess | undefined;
/** The copy whose claim the kill came after, its task not done. */
let caught: string | undefined;
/** Opened once the trigger holding the first copy is in the store: the seed's page waits for it. */
let held: () => void = () => {};
const holding = new Promise<void>((resolve) => (held = resolve));

function html(title: string, canonical: string | undefined, nav: string, main: string): string {
  const link = canonical === undefined ? '' : `<link rel="canonical" href="${canonical}">`;
  return (
    `<!doctype html><html><head><title>${title}</title>${link}</head>` +
    `<body><nav>${nav}</nav><main>${main}</main></body></html>`
  );
}

/** The main content of pair `n`: the same in the copy and its canonical. */
const topic = (n: string) =>
  `<h1>Topic ${n}</h1><p>The whole discussion of topic ${n}, served under its own address and under the address ` +
  `of each of its posts, long enough for the extractor to read it as the main content of the page.</p>`;

/** The store's database, as the test reads and holds it. */
const database = () => new DatabaseSync(join(storeDir, 'crawlkit.db'));

/** Refuses any change of the first copy's task state while it runs: its completion cannot go in before the kill. */
const HOLD =
  `CREATE TRIGGER hold_copy BEFORE UPDATE OF state ON tasks WHEN OLD.key LIKE '%${copies[0]}' ` +
  `AND OLD.state = 'active' BEGIN SELECT RAISE(ABORT, 'held by the test'); END`;

/** With the first copy's page served: waits (holding the thread) for its claim in the store, then kills the child. */
function killAtClaim(path: string): void {
  const db = database();
  const claim = db.prepare('SELECT 1 AS found FROM aliases WHERE by_key LIKE ?');
  const end = Date.now() + 30_000;
  while (Date.now() < end && !claim.get(`%${path}`));
  first!.kill('SIGKILL');
  const task = db.prepare('SELECT state FROM tasks WHERE key LIKE ?').get(`%${path}`) as { state: string } | undefined;
  if (claim.get(`%${path}`) && task?.state === 'active') caught = path;
  db.close();
}

beforeAll(async () => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'ck-fold-kill-'));
  storeDir = join(root, 'store');
  const routes: Parameters<typeof startRouteSite>[0] = {
    '/fk/': async (_req, res) => {
      await holding;
      const links = copies.map((path) => `<li><a href="${path}">${path}</a></li>`).join('');
      res.writeHead(200, { 'content-type': 'text/html' }).end(html('Forum', undefined, '', `<ul>${links}</ul>`));
    },
  };
  for (let n = 1; n <= PAIRS; n++) {
    const canonical = `/fk/topic/${n}`;
    const nav = `<a href="${canonical}">the topic</a>`;
    routes[canonical] = (_req, res) => {
      fetches.set(canonical, (fetches.get(canonical) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'text/html' }).end(html(`Topic ${n}`, canonical, nav, topic(`${n}`)));
    };
    routes[`/fk/copy/${n}`] = (_req, res) => {
      const path = `/fk/copy/${n}`;
      const fetched = (fetches.get(path) ?? 0) + 1;
      fetches.set(path, fetched);
      const page = html(`Topic ${n}`, canonical, nav, topic(`${n}`));
      res.writeHead(200, { 'content-type': 'text/html' }).end(page, () => {
        if (fetched === 1 && n === 1) killAtClaim(path);
      });
    };
  }
  site = await startRouteSite(routes);
}, 300_000);

afterAll(async () => {
  if (first?.exitCode === null) first.kill('SIGKILL');
  await site?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs the child in `mode`; resolves its first line of output, and its exit. */
function spawnChild(args: string[]): { child: ChildProcess; ready: Promise<string>; exit: Promise<string> } {
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'built-hooks.ts'), join(helpers, 'fold-kill-child.ts'), ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  let onReady: (line: string) => void;
  const ready = new Promise<string>((resolve) => (onReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('\n')) onReady(out.slice(0, out.indexOf('\n')));
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(`${signal ?? code} ${err}`)),
  );
  return { child, ready, exit };
}

it('a copy killed between its claim and its completion is kept on resume, its canonical folded into it', async () => {
  const start = spawnChild(['start', storeDir, `${site.url}/fk/`]);
  first = start.child;
  const { crawl: id } = JSON.parse(await start.ready) as { crawl: string };
  const db = database();
  db.exec(HOLD);
  held();
  expect(await start.exit).toMatch(/^SIGKILL/);
  expect(caught, 'the kill landed between the claim and the completion').toBe(copies[0]);
  db.exec('DROP TRIGGER hold_copy');
  db.close();

  const resumed = spawnChild(['resume', storeDir]);
  expect(await resumed.exit).toBe('0 ');
  const ck = new Crawlkit({ storeDir, engine: 'http' });
  try {
    const status = (await ck.getCrawlStatus(id)) as JobStatusResponse;
    expect(status.status).toBe('completed');
    const paths = status.data.map((doc) => new URL(doc.metadata.sourceURL).pathname).sort();
    // Before the claim's `by`: the copy fetched again folded into its own claim, and its canonical into the copy's,
    // leaving that topic in no document.
    expect(paths).toEqual(['/fk/', ...copies].sort());
    expect(fetches.get(caught!)).toBe(2);
    expect(status.data.filter((doc) => doc.markdown?.includes(`Topic ${caught!.slice(-1)}`))).toHaveLength(1);
  } finally {
    await ck.close();
  }
}, 120_000);
