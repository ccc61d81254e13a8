/**
 * The main paths on the oldest Node promised, from the installed tarballs: what the workspace's tests run on Node 24
 * only. A crawl, a batch, a PDF, a windows-1252 page and a change-tracking scrape through the library, a crawl through
 * the CLI, and `serve` answering a crawl over plain HTTP. Node 22.16 differs from 24 in more than missing APIs (its
 * `node:sqlite` bound no value to a numbered `?1`, so every crawl waited on its store; its `TextDecoder` read
 * windows-1252 as ISO-8859-1), so the paths run, not only the imports.
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { OLDEST_NODE } from './oldest-node.ts';
import { run, type Run } from './run.ts';
import { startServe } from './serve.ts';
import { LATIN1_TEXT, PDF_LINE } from './site.ts';
import type { Step, StepContext } from './steps.ts';

const cli = (ctx: StepContext) => join(ctx.dir, 'node_modules/.bin/crawlkit');

/** A JavaScript runtime the paths run on: its name in messages, and the command that runs a file (before the file). */
export interface Runtime {
  name: string;
  command: readonly [string, ...string[]];
}

/** Runs `args` (a file and its arguments) on `runtime`. */
export const runOn = (runtime: Runtime, args: string[], options: Parameters<typeof run>[2]) =>
  run(runtime.command[0], [...runtime.command.slice(1), ...args], options);

const slug = (runtime: Runtime) => runtime.name.replace(/\W+/g, '-').toLowerCase();

interface Job {
  success?: boolean;
  status?: string;
  error?: string;
  data?: { metadata: { sourceURL: string } }[];
}

/** The source URLs of a finished job's pages, sorted, after checking that it completed. */
function pages(job: Job, what: string): string[] {
  assert.equal(job.status, 'completed', `${what}: ${JSON.stringify(job).slice(0, 600)}`);
  return (job.data ?? []).map((page) => page.metadata.sourceURL).sort();
}

/** How long a path may take: each takes 1-3 s; a job waiting on its store never ends. */
const DEADLINE_MS = 60_000;

/** Why a process did not exit 0: killed at the deadline, or what it printed. */
const ended = (result: Run) =>
  result.status === null
    ? `still running after ${DEADLINE_MS / 1000} s, killed: ${result.stderr}${result.stdout.slice(-600)}`
    : result.stderr;

type Scrape = { success: boolean; error?: string; data?: { markdown?: string; changeTracking?: unknown } };

/**
 * A crawl, a batch, a PDF, a page in windows-1252 and two change-tracking scrapes of one page through the library, in
 * one process.
 */
async function library(ctx: StepContext, runtime: Runtime, docs: string[]): Promise<void> {
  const file = join(ctx.dir, `paths-${slug(runtime)}.mjs`);
  writeFileSync(
    file,
    `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ storeDir: './paths-store-${slug(runtime)}', engine: 'http' });
const started = await ck.crawl({ url: '${docs[0]}', limit: 10 });
const crawl = started.success ? await ck.waitForJob(started.id) : started;
const batchStarted = await ck.batchScrape({ urls: ['${docs[1]}', '${docs[2]}'], formats: ['markdown'] });
const batch = batchStarted.success ? await ck.waitForJob(batchStarted.id) : batchStarted;
const pdf = await ck.scrape({ url: '${ctx.site}/report.pdf', formats: ['markdown'] });
const latin1 = await ck.scrape({ url: '${ctx.site}/latin1', formats: ['markdown'] });
const tracked = { url: '${ctx.site}/article', formats: ['markdown', 'changeTracking'], maxAge: 0 };
const first = await ck.scrape(tracked);
const second = await ck.scrape(tracked);
await ck.close();
console.log(JSON.stringify({ crawl, batch, pdf, latin1, first, second }));`,
  );
  const result = await runOn(runtime, [file], { cwd: ctx.dir, timeoutMs: DEADLINE_MS });
  assert.equal(result.status, 0, ended(result));
  assert.equal(result.stderr, '', `the library on ${runtime.name} printed to stderr`);
  const out = JSON.parse(result.stdout) as {
    crawl: Job;
    batch: Job;
    pdf: Scrape;
    latin1: Scrape;
    first: Scrape;
    second: Scrape;
  };
  assert.deepEqual(pages(out.crawl, `the crawl on ${runtime.name}`), docs);
  assert.deepEqual(pages(out.batch, `the batch on ${runtime.name}`), docs.slice(1));
  assert.match(out.pdf.data?.markdown ?? '', new RegExp(PDF_LINE), out.pdf.error);
  assert.ok(out.latin1.data?.markdown?.includes(LATIN1_TEXT), out.latin1.error ?? out.latin1.data?.markdown);
  const changes = [out.first, out.second].map((page) => {
    assert.equal(page.success, true, page.error);
    return (page.data?.changeTracking as { changeStatus?: string } | undefined)?.changeStatus;
  });
  assert.deepEqual(changes, ['new', 'same']);
}

/** `crawlkit crawl --ndjson`: one page a line. */
async function cliCrawl(ctx: StepContext, runtime: Runtime, docs: string[]): Promise<void> {
  const store = join(ctx.dir, `cli-store-${slug(runtime)}`);
  const args = [cli(ctx), 'crawl', docs[0]!, '--engine', 'http', '--store', store, '--ndjson'];
  const crawled = await runOn(runtime, args, { cwd: ctx.dir, timeoutMs: DEADLINE_MS });
  assert.equal(crawled.status, 0, ended(crawled));
  const lines = crawled.stdout.trim().split('\n');
  const urls = lines.map((line) => (JSON.parse(line) as { metadata: { sourceURL: string } }).metadata.sourceURL);
  assert.deepEqual(urls.sort(), docs);
}

/** `crawlkit serve` answering `POST /v2/crawl` and its status, as plain `fetch` (or a v2 SDK) asks. */
async function serveCrawl(ctx: StepContext, runtime: Runtime, docs: string[]): Promise<void> {
  const env = { ...process.env, CRAWLKIT_STORE: join(ctx.dir, `serve-store-${slug(runtime)}`) };
  const served = await startServe(runtime.command, cli(ctx), ctx.dir, env);
  try {
    const response = await fetch(`${served.url}/v2/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: docs[0], limit: 10 }),
    });
    const started = (await response.json()) as { success: boolean; id?: string; error?: string };
    assert.equal(response.status, 200, JSON.stringify(started));
    // The v2 API has no call that waits for a job: its status is read until it is done, as the SDKs do.
    let job: Job = {};
    const deadline = Date.now() + DEADLINE_MS;
    while (Date.now() < deadline && (job.status === undefined || job.status === 'scraping')) {
      if (job.status) await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await (await fetch(`${served.url}/v2/crawl/${started.id}`)).json()) as Job;
    }
    assert.deepEqual(pages(job, `serve POST /v2/crawl on ${runtime.name}`), docs);
  } finally {
    const { code, stderr } = await served.stop();
    assert.equal(code, 0, `serve on ${runtime.name} stopped with ${code}: ${stderr}`);
  }
}

export const oldestNodePaths: Step = {
  name: `the oldest Node promised (${OLDEST_NODE}) crawls, batches, reads a PDF, tracks changes: library, CLI, serve`,
  run: async (ctx) => {
    const node = ctx.oldestNode;
    if (!node) throw new Error(`skip: ${ctx.oldestNodeSkip ?? 'no oldest Node installed'}`);
    await mainPaths(ctx, { name: `Node ${OLDEST_NODE}`, command: [node] });
  },
};

/** A path more than the main ones (`mainPaths`), run beside them. */
export type Path = (ctx: StepContext, runtime: Runtime, docs: string[]) => Promise<void>;

/**
 * The main paths on `runtime` (and `more`), each in a process with a store of its own, all at once: the step takes
 * the time of the longest. Throws what failed.
 */
export async function mainPaths(ctx: StepContext, runtime: Runtime, more: Path[] = []): Promise<void> {
  const docs = [`${ctx.site}/docs/`, `${ctx.site}/docs/a`, `${ctx.site}/docs/b`];
  const paths = [library, cliCrawl, serveCrawl, ...more];
  const outcomes = await Promise.allSettled(paths.map((path) => path(ctx, runtime, docs)));
  const failed = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (failed.length)
    throw new Error(failed.map((reason) => (reason instanceof Error ? reason.message : String(reason))).join('\n'));
}
