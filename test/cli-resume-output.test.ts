/**
 * `crawlkit resume` after a Ctrl-C: stdout has the pages completed after the resume (so output appended to the
 * interrupted run's file has each page once), in every output mode; `--all` prints the whole job; `--out` ends with it.
 */
import { readFileSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';

import type { Document } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { interruptedCrawl, startChainCrawl } from './helpers/cli-interrupt.ts';
import { CHAIN_LENGTH, jobIdOf, useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();
let last: Promise<unknown> = Promise.resolve();
/**
 * The file's commands one at a time in the test's process: run at once (the second case's four jobs), all but one
 * started the built command in a child, ~1.2 s of CPU each to start.
 */
const cli = (args: string[]) => {
  const run = last.then(() => site.cli(args));
  last = run.catch(() => undefined);
  return run;
};

/** The chain's URLs, sorted. */
const chain = () => Array.from({ length: CHAIN_LENGTH }, (_, n) => `${site.server.url}/cli/chain/${n}`).toSorted();
const urlsOf = (ndjson: string): string[] =>
  ndjson
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as Document).metadata.sourceURL);

/** A crawl interrupted with `--ndjson`: its id and the URLs it printed (at least one, not all). */
async function interrupted(): Promise<{ id: string; printed: string[] }> {
  const { id, result } = await interruptedCrawl(site, ['--ndjson']);
  expect(result.code).toBe(130);
  const printed = urlsOf(result.stdout);
  expect(printed.length).toBeGreaterThanOrEqual(1);
  expect(printed.length).toBeLessThan(CHAIN_LENGTH);
  // Every page the store kept was printed: the resume starts where the store stands.
  const status = JSON.parse((await cli(['status', id, '--json'])).stdout) as { completed: number };
  expect(status.completed).toBe(printed.length);
  return { id, printed };
}

describe('resume output after Ctrl-C', { timeout: 120_000 }, () => {
  it('--ndjson appends the pages to come: with the first run, each page of the job once', async () => {
    const { id, printed } = await interrupted();
    const resumed = await cli(['resume', id, '--ndjson']);
    expect(resumed.code).toBe(0);
    const appended = [...printed, ...urlsOf(resumed.stdout)];
    expect(appended.toSorted()).toEqual(chain());
    expect(resumed.stderr).toContain(`--all prints the ${printed.length} before`);
  });

  it('text and --json print the pages to come; --all prints the whole job; --out holds the whole job', async () => {
    // Four crawls of their own on the shared store, run at once: each mostly waits on its slow pages.
    const text = async () => {
      const { id, printed } = await interrupted();
      const out = join(site.dir, 'resumed-text');
      const resumedText = await cli(['resume', id, '--out', out]);
      expect(resumedText.code).toBe(0);
      expect(resumedText.stderr).toMatch(
        new RegExp(`completed: ${CHAIN_LENGTH - printed.length} pages? since the resume \\(${CHAIN_LENGTH} in all\\)`),
      );
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { pages: { url: string }[] };
      expect(manifest.pages.map((p) => p.url).toSorted()).toEqual(chain());
    };
    const plain = async () => {
      const { id, printed } = await interrupted();
      const resumedPlain = await cli(['resume', id, '--quiet']);
      const headers = [...resumedPlain.stdout.matchAll(/^<!-- (\S+) -->$/gm)].map((m) => m[1]!);
      expect([...printed, ...headers].toSorted()).toEqual(chain());
    };
    const json = async () => {
      const { id, printed } = await interrupted();
      const resumedJson = await cli(['resume', id, '--json']);
      const body = JSON.parse(resumedJson.stdout) as { status: string; completed: number; data: Document[] };
      expect(body).toMatchObject({ status: 'completed', completed: CHAIN_LENGTH });
      expect([...printed, ...body.data.map((d) => d.metadata.sourceURL)].toSorted()).toEqual(chain());
    };
    const all = async () => {
      const { id } = await interrupted();
      const resumedAll = await cli(['resume', id, '--all', '--ndjson']);
      expect(resumedAll.code).toBe(0);
      expect(urlsOf(resumedAll.stdout).toSorted()).toEqual(chain());
    };
    await Promise.all([text(), plain(), json(), all()]);
  });

  it('an --out file: the interrupted run names it, and its resume appends (or, under --json, writes the whole job)', async () => {
    /** A crawl saving its output in `file`, interrupted once its first page is there (or `started()` says). */
    const interruptedToFile = async (
      mode: string,
      file: string,
      started?: (log: string) => boolean,
      more: string[] = [],
    ) => {
      const child = startChainCrawl(site, [mode, '-o', file, ...more]);
      let ended = false;
      void child.result.then(() => (ended = true));
      let log = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
      const ready = () => (started ? started(log) : (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0);
      // The file is the command's stdout: its first bytes are the first page printed (slow pages: ~0.3 s each).
      while (!ended && !ready()) await sleep(20);
      child.kill('SIGINT');
      const result = await child.result;
      expect(result.code).toBe(130);
      return { id: jobIdOf(result.stderr), stderr: result.stderr };
    };

    const ndjsonFile = join(site.dir, 'pages.ndjson');
    const first = await interruptedToFile('--ndjson', ndjsonFile);
    expect(first.stderr).toContain(
      `kept in ${ndjsonFile}. Resume with:\n  crawlkit resume ${first.id} --store ${JSON.stringify(site.store)} ` +
        `--ndjson --out ${JSON.stringify(ndjsonFile)}\n`,
    );
    const printed = urlsOf(readFileSync(ndjsonFile, 'utf8'));
    expect(printed.length).toBeLessThan(CHAIN_LENGTH);
    const resumed = await cli(['resume', first.id, '--ndjson', '-o', ndjsonFile]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`${ndjsonFile} gets the pages to come`);
    // The interrupted run's pages, then the resume's: each page of the job once.
    expect(urlsOf(readFileSync(ndjsonFile, 'utf8')).toSorted()).toEqual(chain());

    // --json prints at the end: the interrupted run's hint prints the whole job; a resume into a file writes it all.
    // The engine is the command's, not the job's: the line names it.
    const jsonFile = join(site.dir, 'job.json');
    const second = await interruptedToFile('--json', jsonFile, (log) => /crawl \S+ started/.test(log), [
      '--engine',
      'http',
    ]);
    expect(second.stderr).toContain(
      `crawlkit resume ${second.id} --store ${JSON.stringify(site.store)} --engine http --all --json`,
    );
    const { id } = await interrupted();
    const resumedJson = await cli(['resume', id, '--json', '-o', jsonFile]);
    expect(resumedJson.code).toBe(0);
    expect(resumedJson.stderr).toContain(`the file gets the whole job`);
    const body = JSON.parse(readFileSync(jsonFile, 'utf8')) as { status: string; data: Document[] };
    expect(body.status).toBe('completed');
    expect(body.data.map((d) => d.metadata.sourceURL).toSorted()).toEqual(chain());
  });
});
