/**
 * Every usage mistake ends its stderr line in `(CLI_USAGE)` and exits 2, whoever found it: commander (an unknown
 * flag, a missing argument, a value outside a flag's choices, an unknown command, too many arguments), the CLI's own
 * checks (`CliError` of `CLI_USAGE`: a missing URL, two stores), and a v2 refusal a flag caused. `--json` keeps its
 * v2 body on stdout. A script reads the code at the end of the last line, as for every other failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.ts';

const store = mkdtempSync(join(tmpdir(), 'ck-cli-usage-'));
afterAll(() => rmSync(store, { recursive: true, force: true }));

// No page is fetched: each command stops before its work starts.
const URL = 'http://127.0.0.1:1/';

describe('a usage line ends in (CLI_USAGE), exit 2', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown flag', ['scrape', URL, '--nope'], /^crawlkit: unknown option '--nope' .*\(CLI_USAGE\)\n$/],
    ['a missing URL', ['scrape'], /^crawlkit: missing URL: .*\(CLI_USAGE\)\n$/],
    ['a missing argument', ['batch'], /^crawlkit: missing required argument 'file'.*\(CLI_USAGE\)\n$/],
    [
      'a flag without its value',
      ['crawl', URL, '--limit'],
      /^crawlkit: option .*--limit <n>' argument missing.*\(CLI_USAGE\)\n$/,
    ],
    [
      'a bad enum value',
      ['worker', '--log-format', 'xml'],
      /^crawlkit: option '--log-format <format>' argument 'xml' is invalid\. Allowed choices are text, json\..*\(CLI_USAGE\)\n$/,
    ],
    ['an unknown command', ['scrap', URL], /^crawlkit: unknown command 'scrap'.*\(CLI_USAGE\)\n$/],
    ['too many arguments', ['scrape', URL, URL], /^crawlkit: too many arguments for 'scrape'.*\(CLI_USAGE\)\n$/],
    [
      'two stores',
      ['crawl', URL, '--redis', 'redis://127.0.0.1:1'],
      /^crawlkit: Choose one of --store and --redis.*\(CLI_USAGE\)\n$/,
    ],
    ['a flag the v2 body refuses', ['crawl', URL, '--limit', 'ten'], /^crawlkit: --limit: .*\(CLI_USAGE\)\n$/],
  ];
  for (const [kind, args, line] of cases) {
    it(kind, async () => {
      const { code, stderr } = await runCli([args[0]!, '--store', store, ...args.slice(1)], { cwd: store });
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(line);
    });
  }

  it('no command at all: the help, then the line', async () => {
    const { code, stderr } = await runCli([], { cwd: store });
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: crawlkit');
    expect(stderr.split('\n').at(-2)).toMatch(/^crawlkit: no command given: .*\(CLI_USAGE\)$/);
  });

  it('--json keeps the v2 body on stdout, the line on stderr', async () => {
    const { code, stdout, stderr } = await runCli(['scrape', URL, '--nope', '--json', '--store', store], {
      cwd: store,
    });
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toEqual({
      success: false,
      code: 'CLI_USAGE',
      error: "unknown option '--nope' (run with --help for usage)",
    });
    expect(stderr).toBe("crawlkit: unknown option '--nope' (run with --help for usage) (CLI_USAGE)\n");
  });

  it('--help and --version are no mistakes', async () => {
    expect((await runCli(['--help'], { cwd: store })).code).toBe(0);
    const version = await runCli(['-v'], { cwd: store });
    expect(version.code).toBe(0);
    expect(version.stderr).toBe('');
  });
});
