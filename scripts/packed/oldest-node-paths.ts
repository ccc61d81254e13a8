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

interface Job {
  success?: boolean;
  status?: string;
  error?: string;
  data?: { metadata: { sourceURL: string } }[];
}

/** The source URLs of a finished job's pages, sorted, after checking that it completed. */
function pages(job: Job, what: string): string[] {
  assert.equal(job.status, 'completed', `${what} on Node ${OLDEST_NODE}: ${JSON.stringify(job).slice(0, 600)}`);
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
async function library(ctx: StepContext, node: string, docs: string[]): Promise<void> {
  const file = join(ctx.dir, 'oldest-node-paths.mjs');
  writeFileSync(
    file,
    `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ storeDir: './oldest-node-paths-store', engine: 'http' });
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
  const result = await run(node, [file], { cwd: ctx.dir, timeoutMs: DEADLINE_MS });
  assert.equal(result.status, 0, ended(result));
  assert.equal(result.stderr, '', `the library on Node ${OLDEST_NODE} printed to stderr`);
  const out = JSON.parse(result.stdout) as {
    crawl: Job;
    batch: Job;
    pdf: Scrape;
    latin1: Scrape;
    first: Scrape;
    second: Scrape;
  };
  assert.deepEqual(pages(out.crawl, 'the crawl'), docs);
  assert.deepEqual(pages(out.batch, 'the batch'), docs.slice(1));
  assert.match(out.pdf.data?.markdown ?? '', new RegExp(PDF_LINE), out.pdf.error);
  assert.ok(out.latin1.data?.markdown?.includes(LATIN1_TEXT), out.latin1.error ?? out.latin1.data?.markdown);
  const changes = [out.first, out.second].map((page) => {
    assert.equal(page.success, true, page.error);
    return (page.data?.changeTracking as { changeStatus?: string } | undefined)?.changeStatus;
  });
  assert.deepEqual(changes, ['new', 'same']);
}

/** `crawlkit crawl --ndjson`: one page a line. */
async function cliCrawl(ctx: StepContext, node: string, docs: string[]): Promise<void> {
  const store = join(ctx.dir, 'oldest-node-cli-store');
  const args = [cli(ctx), 'crawl', docs[0]!, '--engine', 'http', '--store', store, '--ndjson'];
  const crawled = await run(node, args, { cwd: ctx.dir, timeoutMs: DEADLINE_MS });
  assert.equal(crawled.status, 0, ended(crawled));
  const lines = crawled.stdout.trim().split('\n');
  const urls = lines.map((line) => (JSON.parse(line) as { metadata: { sourceURL: string } }).metadata.sourceURL);
  assert.deepEqual(urls.sort(), docs);
}

/** `crawlkit serve` answering `POST /v2/crawl` and its status, as plain `fetch` (or a v2 SDK) asks. */
async function serveCrawl(ctx: StepContext, node: string, docs: string[]): Promise<void> {
  const env = { ...process.env, CRAWLKIT_STORE: join(ctx.dir, 'oldest-node-serve-store') };
  const served = await startServe(node, cli(ctx), ctx.dir, env);
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
    assert.deepEqual(pages(job, 'serve POST /v2/crawl'), docs);
  } finally {
    const { code, stderr } = await served.stop();
    assert.equal(code, 0, `serve on Node ${OLDEST_NODE} stopped with ${code}: ${stderr}`);
  }
}

export const oldestNodePaths: Step = {
  name: `the oldest Node promised (${OLDEST_NODE}) crawls, batches, reads a PDF, tracks changes: library, CLI, serve`,
  run: async (ctx) => {
    const node = ctx.oldestNode;
    if (!node) throw new Error(`skip: ${ctx.oldestNodeSkip ?? 'no oldest Node installed'}`);
    const docs = [`${ctx.site}/docs/`, `${ctx.site}/docs/a`, `${ctx.site}/docs/b`];
    // Three processes with stores of their own: at once, the step takes the time of the longest.
    const outcomes = await Promise.allSettled([library, cliCrawl, serveCrawl].map((path) => path(ctx, node, docs)));
    const failed = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    if (failed.length)
      throw new Error(failed.map((reason) => (reason instanceof Error ? reason.message : String(reason))).join('\n'));
  },
};
