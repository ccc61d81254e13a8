/**
 * `crawlkit resume` after a Ctrl-C: stdout has the pages completed after the resume (so output appended to the
 * interrupted run's file has each page once), in every output mode; `--all` prints the whole job; `--out` ends with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Document } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { interruptedCrawl } from './helpers/cli-interrupt.ts';
import { CHAIN_LENGTH, useCliSite } from './helpers/cli-site.ts';

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
});
