/** `crawlkit worker --help`, through the built CLI: each flag once, its engine flags as every command's. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, runCli } from './cli-helpers.ts';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-cli-worker-help-'));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crawlkit worker --help', { timeout: 60_000 }, () => {
  it("worker --help lists each flag once, with the shared flags' help of the other commands", async () => {
    const help = await runCli(['worker', '--help'], { cwd: dir });
    expect(help.code).toBe(0);
    const flags = [...help.stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]);
    expect(flags).toContain('--redis-prefix');
    // --prefix is the older spelling of --redis-prefix: still taken, not listed as a flag of its own
    expect(flags).not.toContain('--prefix');
    const [crawl, serve] = await Promise.all([
      runCli(['crawl', '--help'], { cwd: dir }),
      runCli(['serve', '--help'], { cwd: dir }),
    ]);
    // The flag's whole entry: its help wraps at a column that depends on the command's longest flag.
    const entry = (text: string, flag: string) => {
      const lines = text.split('\n');
      const start = lines.findIndex((l) => l.startsWith(`  ${flag}`));
      const end = lines.findIndex((l, i) => i > start && /^\s*(?:-\w, )?--|^\S/.test(l));
      return lines
        .slice(start, end < 0 ? undefined : end)
        .join(' ')
        .replace(/\s+/g, ' ');
    };
    for (const flag of ['--engine <engine>', '--max-body-bytes <n>', '-q, --quiet']) {
      expect(entry(help.stdout, flag)).toBe(entry(crawl.stdout, flag));
    }
    // --quiet: one help for every command, saying what it does to serve's and worker's lines; --log-format: one
    // home for serve and worker, with its default.
    expect(entry(serve.stdout, '-q, --quiet')).toBe(entry(crawl.stdout, '-q, --quiet'));
    expect(entry(crawl.stdout, '-q, --quiet')).toContain('serve and worker: warnings and errors only');
    expect(entry(help.stdout, '--log-format')).toBe(entry(serve.stdout, '--log-format'));
    expect(entry(serve.stdout, '--log-format')).toContain('(choices: "text", "json", default: "text")');
    const refused = await runCli(['serve', '--log-format', 'xml'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("option '--log-format <format>' argument 'xml' is invalid");
    const older = await runCli(['worker', '--prefix', 'p'], { cwd: dir, env: { CRAWLKIT_REDIS_URL: '' } });
    expect(older.stderr).toContain('Give the Redis URL with --redis <url>');
  });

  it('takes --task-retry-delay-ms <ms>, a positive integer, as --task-lock-ms is', async () => {
    const help = await runCli(['worker', '--help'], { cwd: dir });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      ' --task-retry-delay-ms <ms> a task that failed on Redis (not its page) runs again after this, doubled each time, ' +
        'five runs (default 1000) ',
    );
    for (const [flag, value] of [
      ['--task-retry-delay-ms', '0'],
      ['--task-lock-ms', '0'],
    ] as const) {
      const refused = await runCli(['worker', '--redis', 'redis://127.0.0.1:1', flag, value], { cwd: dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`Expected ${flag} to be a positive integer, got "0"`);
    }
  });
});
