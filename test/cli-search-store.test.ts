/**
 * `crawlkit search`, the built command, and the store it reads: pages scraped into a store are found with its
 * --store, a --store that is not there is told as such (exit 2) instead of made empty and answered "no results",
 * and --out (which writes pages' files, none here) is refused instead of ignored.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
  dir = mkdtempSync(join(tmpdir(), 'ck-cli-search-'));
  site = await startFixtureServer({
    routes: {
      '/lighthouse': textPage('Keepers', 'The lighthouse keeper trims the wick at dusk and logs every ship.'),
    },
  });
});

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('crawlkit search and its --store', { timeout: 60_000 }, () => {
  it('finds a page scraped into the store it is given', async () => {
    const store = join(dir, 'store');
    expect((await runCli(['scrape', `${site.url}/lighthouse`, '--store', store, '-q'], { cwd: dir })).code).toBe(0);
    const found = await runCli(['search', 'lighthouse', '--store', store], { cwd: dir });
    expect(found).toMatchObject({ code: 0 });
    expect(found.stdout).toContain(`${site.url}/lighthouse`);
  });

  it('says a store that is not there is not there, and leaves none behind', async () => {
    const missing = join(dir, 'typo');
    const answer = await runCli(['search', 'lighthouse', '--store', missing], { cwd: dir });
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain(`There is no store at ${missing} to search`);
    expect(answer.stderr).toContain('CLI_USAGE');
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses --out where it would write nothing (search, map, status), saying how to save the answer', async () => {
    const out = join(dir, 'out');
    const store = ['--store', join(dir, 'store')];
    // Before: map and status took --out and wrote nothing, without a word.
    for (const [name, ...args] of [
      ['search', 'lighthouse'],
      ['map', 'http://127.0.0.1:9/'],
      ['status', 'x'],
    ]) {
      const answer = await runCli([name!, ...args, ...store, '--out', out], { cwd: dir });
      expect(answer.code).toBe(2);
      expect(answer.stderr).toContain(`${name} prints its answer. Save it with --json > ${name}.json.`);
      expect(existsSync(out)).toBe(false);
    }
  });
});
