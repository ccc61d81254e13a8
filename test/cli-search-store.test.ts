/**
 * `crawlkit search`, the built command, and the store it reads: pages scraped into a store are found with its
 * --store, a --store that is not there is told as such (exit 2) instead of made empty and answered "no results",
 * and --out (which writes pages' files, none here) is refused instead of ignored.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
      expect(answer.stderr).toContain(
        `${name} prints its answer. Save it with --json -o ${name}.json (or --json > ${name}.json).`,
      );
      expect(existsSync(out)).toBe(false);
    }
  });

  it('takes the options of a search: --exclude-site, --country, --timeout, and --format to scrape each result', async () => {
    const asked: URLSearchParams[] = [];
    const searxng = createServer((req, res) => {
      asked.push(new URL(req.url ?? '/', 'http://x').searchParams);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{ url: `${site.url}/lighthouse`, title: 'Keepers', content: 'wick' }] }));
    });
    await new Promise<void>((resolve) => searxng.listen(0, '127.0.0.1', resolve));
    try {
      const provider = `http://127.0.0.1:${(searxng.address() as AddressInfo).port}`;
      // Before: each was an unknown option (exit 2); these needed --json through serve or the function API (qa49e)
      const answer = await runCli(
        [
          'search',
          'wick',
          '--searxng-url',
          provider,
          '--exclude-site',
          'spam.example',
          '--country',
          'de',
          '--timeout',
          '20000',
          '--format',
          'markdown',
          '--store',
          join(dir, 'web-store'),
        ],
        { cwd: dir },
      );
      expect(answer, answer.stderr).toMatchObject({ code: 0 });
      expect(asked[0]!.get('q')).toBe('wick -site:spam.example');
      expect(answer.stdout).toContain(`${site.url}/lighthouse`);
      expect(answer.stdout).toContain('The lighthouse keeper trims the wick at dusk');
      expect(answer.stderr).toContain('The searxng search provider does not apply `country`');
    } finally {
      await new Promise((resolve) => searxng.close(resolve));
    }
  });
});
