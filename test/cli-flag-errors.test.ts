/**
 * A bad value of a command-line flag is told as that flag: exit code 2 and a sentence naming it, whether the CLI
 * checks it itself or the v2 validation of the body the flags build refuses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli, type CliResult } from './cli-helpers.ts';

const store = mkdtempSync(join(tmpdir(), 'ck-cli-flags-'));
afterAll(() => rmSync(store, { recursive: true, force: true }));

/** Runs the CLI (in this process) with this file's store. */
const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--store', store], { cwd: store });

// No page is fetched: each body is refused before its work starts.
const URL = 'http://127.0.0.1:1/';

describe('a bad flag value names the flag', () => {
  const cases: [string[], string][] = [
    [['scrape', URL, '--max-age', '-1'], '--max-age'],
    [['scrape', URL, '--wait-for', '1.5'], '--wait-for'],
    [['scrape', URL, '--format', 'nope'], '--format'],
    [['scrape', URL, '--country', 'zz9'], '--country'],
    [['scrape', URL, '--proxy', 'fast'], '--proxy'],
    [['crawl', URL, '--limit', 'ten'], '--limit'],
    [['crawl', URL, '--max-age', 'old'], '--max-age'],
    [['crawl', URL, '--sitemap', 'maybe'], '--sitemap'],
    [['crawl', URL, '--max-concurrency', '0'], '--max-concurrency'],
    [['crawl', URL, '--webhook', 'nowhere'], '--webhook'],
    [['map', URL, '--limit', '-5'], '--limit'],
    [['search', 'words', '--source', 'nope'], '--source'],
    [['search', 'words', '--tbs', 'yesterday'], '--tbs'],
    // A schedule keeps each target's change feed, which zero data retention forbids.
    [['crawl', URL, '--every', '1h', '--zero-data-retention'], '--zero-data-retention'],
    [['crawl', URL, '--every', '1h', '--limit', '0'], '--limit'],
  ];
  for (const [args, flag] of cases) {
    it(`${args.slice(2).join(' ')} (${args[0]})`, async () => {
      const { code, stderr } = await cli(args);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(flag);
    });
  }
});

describe('a bad flag value the engine refuses names the flag', () => {
  const cases: [string[], string, RegExp][] = [
    [['search', 'words', '--searxng-url', 'not a url'], '--searxng-url', /`search\.provider\.url` \(--searxng-url\)/],
    [['scrape', URL, '--concurrency', '0'], '--concurrency', /--concurrency/],
    [['serve', '--port', '0', '--proxy', 'nope'], '--proxy', /`proxies\.basic\.0` \(--proxy\)/],
    [['serve', '--port', '0', '--cors', 'not-an-origin'], '--cors', /`cors\.0` \(--cors\)/],
  ];
  for (const [args, flag, message] of cases) {
    it(`${args.slice(1).join(' ')} (${args[0]})`, async () => {
      const { code, stderr } = await cli(args);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(flag);
      expect(stderr).toMatch(message);
    });
  }
});

it('mcp over stdio refuses the flags of MCP over HTTP, saying to add --http', async () => {
  for (const flags of [
    ['--port', '3003'],
    ['--host', '0.0.0.0'],
    ['--api-key', 'k'],
    ['--cors', '*'],
  ]) {
    const { code, stderr } = await cli(['mcp', ...flags]);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(`crawlkit: ${flags[0]} applies to MCP over HTTP: add --http`);
  }
});

it('names no flag for an issue of the URL argument, whatever other flag is also wrong', async () => {
  const { code, stderr } = await cli(['crawl', 'http://x', '--limit', 'ten']);
  expect(code, stderr).toBe(2);
  expect(stderr).toContain('crawlkit: URL must have a valid top-level domain');
  expect(stderr).not.toContain('--limit');
});

it('tells --engine replay to use `crawlkit replay`, and no other wrong engine', async () => {
  const wrong = await cli(['scrape', URL, '--engine', 'chrome']);
  expect(wrong.code, wrong.stderr).toBe(2);
  expect(wrong.stderr).toContain('Expected --engine to be auto, http or browser, got "chrome"');
  expect(wrong.stderr).not.toContain('replay');
  const replay = await cli(['scrape', URL, '--engine', 'replay']);
  expect(replay.code, replay.stderr).toBe(2);
  expect(replay.stderr).toContain('`crawlkit replay <files...>` replays WARC files');
});

it('says what to do when the port of serve or mcp --http is taken', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = String((taken.address() as { port: number }).port);
  try {
    for (const args of [
      ['serve', '--port', port],
      ['mcp', '--http', '--port', port],
    ]) {
      const { code, stderr } = await cli(args);
      expect(code, stderr).toBe(1);
      expect(stderr).toContain('EADDRINUSE');
      expect(stderr).toContain('Stop it, or give another --port (0 picks a free one)');
    }
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

it('answers the v2 error shape on stdout under --json and --ndjson when the command stops before it runs', async () => {
  const cases: [string[], RegExp][] = [
    [['scrape', URL, '--fromat', 'markdown', '--json'], /^unknown option '--fromat' \(Did you mean --format\?\)/],
    [['scrape', '--json'], /^missing URL: crawlkit scrape <url>/],
    [['scrape', URL, '--engine', 'chrome', '--json'], /^Expected --engine to be auto, http or browser/],
    [['crawl', URL, '--limt', '3', '--ndjson'], /^unknown option '--limt'/],
  ];
  for (const [args, message] of cases) {
    const { code, stdout, stderr } = await cli(args);
    expect(code, stderr).toBe(2);
    const answer = JSON.parse(stdout) as { success: boolean; code: string; error: string };
    expect(answer).toMatchObject({ success: false, code: 'CLI_USAGE' });
    expect(answer.error).toMatch(message);
    if (args.includes('--ndjson')) expect(stdout.trim().split('\n')).toHaveLength(1);
  }
  // without either flag, stdout stays empty: the mistake is told on stderr only
  const plain = await cli(['scrape', URL, '--fromat', 'markdown']);
  expect(plain.stdout).toBe('');
  expect(plain.stderr).toContain("unknown option '--fromat'");
});
