/**
 * `--store memory` (or `CRAWLKIT_STORE=memory`) is the API's `store: 'memory'`: a command runs on a store that keeps
 * nothing after it, and leaves no directory named `memory` behind (as it did, taking the word for a path); a command
 * that reads a store says there is nothing to read in one. A directory of that name is `./memory`.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, runCli } from './cli-helpers.ts';
import { textPage } from './helpers/text-page.ts';

let dir: string;
let site: FixtureServer;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-cli-memory-'));
  site = await startFixtureServer({
    routes: {
      '/': textPage('Harbour', 'The harbour master opens the lock gates at high water. <a href="/tides">Tides</a>'),
      '/tides': textPage('Tides', 'Spring tides run highest two days after the full moon.'),
    },
  });
});

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('crawlkit --store memory', { timeout: 60_000 }, () => {
  it('scrapes and crawls on a store that keeps nothing, leaving no directory', async () => {
    const cwd = mkdtempSync(join(dir, 'run-'));
    const scraped = await runCli(['scrape', `${site.url}/`, '--store', 'memory', '-q'], { cwd });
    expect(scraped).toMatchObject({ code: 0 });
    expect(scraped.stdout).toContain('harbour master');
    const crawled = await runCli(['crawl', `${site.url}/`, '--limit', '2', '--json', '-q'], {
      cwd,
      env: { CRAWLKIT_STORE: 'memory' },
    });
    expect(crawled).toMatchObject({ code: 0 });
    expect(JSON.parse(crawled.stdout)).toMatchObject({ status: 'completed', total: 2 });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('says a command that reads a store has nothing to read in memory', async () => {
    const cwd = mkdtempSync(join(dir, 'run-'));
    const status = await runCli(['status', '8a4e1c3e-64a1-4a0a-9d36-2f3f2c7c9b11', '--store', 'memory'], { cwd });
    expect(status.code).not.toBe(0);
    expect(status.stderr).toContain('there is no store at memory (--store memory keeps nothing after its command)');
    const search = await runCli(['search', 'harbour', '--store', 'memory'], { cwd });
    expect(search.code).toBe(2);
    expect(search.stderr).toContain('There is no store at memory (--store memory keeps nothing after its command)');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('says a change-tracked scrape or crawl --changes forgets its history with the command', async () => {
    const cwd = mkdtempSync(join(dir, 'run-'));
    const tracked = ['scrape', `${site.url}/tides`, '-f', 'markdown,changeTracking'];
    const forgotten = 'note: --store memory keeps no change history: the next run is all new again';
    for (let run = 0; run < 2; run++) {
      const scraped = await runCli([...tracked, '--store', 'memory'], { cwd });
      expect(scraped).toMatchObject({ code: 0 });
      expect(JSON.parse(scraped.stdout).changeTracking.changeStatus).toBe('new');
      expect(scraped.stderr).toContain(forgotten);
    }
    const crawled = await runCli(['crawl', `${site.url}/`, '--changes', '--store', 'memory'], { cwd });
    expect(crawled.stderr).toContain('first run of this lineage');
    expect(crawled.stderr).toContain(forgotten);
    // A store that keeps it says nothing of the kind; `--quiet` nothing at all.
    expect((await runCli(tracked, { cwd })).stderr).not.toContain('keeps no change history');
    expect((await runCli([...tracked, '--store', 'memory', '-q'], { cwd })).stderr).toBe('');
  });

  it('takes ./memory for a directory of that name', async () => {
    const cwd = mkdtempSync(join(dir, 'run-'));
    expect((await runCli(['scrape', `${site.url}/tides`, '--store', './memory', '-q'], { cwd })).code).toBe(0);
    expect(existsSync(join(cwd, 'memory', 'crawlkit.db'))).toBe(true);
  });
});
