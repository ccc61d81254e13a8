/**
 * The fixture site and scratch directory the CLI tests share: a chain of slow pages to interrupt, a store in a
 * temporary directory, and `cli()` running the command against that store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll } from 'vitest';

import { startFixtureServer, type FixtureServer, type Routes } from '../../fixtures/server.ts';
import { ensureBuilt, runCli, type CliOptions, type CliResult } from '../cli-helpers.ts';

export const CHAIN_LENGTH = 8;

/** A chain of slow pages (each links to the next) so that a crawl lasts long enough to be interrupted. */
const chainRoutes: Routes = {
  '/cli/chain/*': async (_req, res, { url }) => {
    const n = Number(url.pathname.split('/').pop());
    await new Promise((resolve) => setTimeout(resolve, 150));
    const next = n + 1 < CHAIN_LENGTH ? `<p>Next: <a href="/cli/chain/${n + 1}">page ${n + 1}</a></p>` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Chain ${n}</title></head><body><main><h1>Chain page ${n}</h1>` +
        `<p>Page number ${n} of a chain of slow pages used by the command line tests.</p>${next}</main></body></html>`,
    );
  },
};

/** What `useCliSite` sets up; the fields are filled in `beforeAll`. */
export interface CliSite {
  server: FixtureServer;
  /** The scratch directory the CLI runs in, removed after the file's tests. */
  dir: string;
  /** The `--store` directory inside `dir`. */
  store: string;
  /**
   * Runs the CLI in `dir` against `store`, with `input` on stdin: in the test's process, or the built command as a
   * child with `{ process: true }` (see `runCli`).
   */
  cli: (args: string[], input?: string, options?: Pick<CliOptions, 'process'>) => Promise<CliResult>;
}

/** Registers the file's `beforeAll`/`afterAll` that build the CLI, start the fixture site and make the scratch dir. */
export function useCliSite(): CliSite {
  const site = {
    cli: (args: string[], input?: string, options: Pick<CliOptions, 'process'> = {}): Promise<CliResult> =>
      runCli([...args, '--store', site.store], {
        ...options,
        cwd: site.dir,
        ...(input !== undefined ? { input } : {}),
      }),
  } as CliSite;

  beforeAll(async () => {
    ensureBuilt();
    site.server = await startFixtureServer({ routes: chainRoutes });
    site.dir = mkdtempSync(join(tmpdir(), 'ck-cli-'));
    site.store = join(site.dir, 'store');
  }, 180_000);

  afterAll(async () => {
    await site.server?.close();
    if (site.dir) rmSync(site.dir, { recursive: true, force: true });
  });

  return site;
}

/** The id of the job a `crawl` or `batch` command reported starting on stderr. */
export const jobIdOf = (stderr: string): string => {
  const match = /(?:crawl|batch) ([0-9a-f-]{36}) started/.exec(stderr);
  if (!match) throw new Error(`no job id in: ${stderr}`);
  return match[1]!;
};
