/**
 * A batch script's failures: the summary lists the first ones and says where the rest are, and `crawlkit status
 * <id> --errors` lists every one (the v2 errors response with `--json`), so a script can retry them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.ts';
import { interruptedCrawl } from './helpers/cli-interrupt.ts';
import { useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();

describe('the failures of a batch', { timeout: 120_000 }, () => {
  it('are all listed by status --errors, and the summary says so past its first 20', async () => {
    // port 1 refuses at once: 25 failed pages beside 2 good ones. The default timeout: with --timeout 5000 a good page
    // failed once at load 15 (the first page's deadline counts the extraction thread's start).
    const refused = Array.from({ length: 25 }, (_, i) => `http://127.0.0.1:1/gone/${i}`);
    const urls = [`${site.server.url}/cli/chain/0`, ...refused, `${site.server.url}/cli/chain/1`].join('\n');
    const run = await site.cli(['batch', '-', '--format', 'links'], urls);
    expect(run.code, run.stderr).toBe(0);
    const id = /batch (\S+) completed/.exec(run.stderr)?.[1];
    expect(run.stderr).toContain('2 pages, 25 errors');
    expect(run.stderr.match(/^ {2}failed: /gm)).toHaveLength(20);
    expect(run.stderr).toContain(`… and 5 more: crawlkit status ${id} --errors`);

    const text = await site.cli(['status', id!, '--errors']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(25);
    expect(lines.map((line) => line.split('\t')[0]).sort()).toEqual([...refused].sort());
    expect(lines[0]!.split('\t')[1]).toBe('SCRAPE_CONNECTION_ERROR');

    const json = await site.cli(['status', id!, '--errors', '--json']);
    const body = JSON.parse(json.stdout) as { errors: { url: string; code?: string }[] };
    expect(body.errors.map((e) => e.url).sort()).toEqual([...refused].sort());
  });

  it('with --store memory, say where the rest are without naming a command that cannot find the job', async () => {
    const refused = Array.from({ length: 22 }, (_, i) => `http://127.0.0.1:1/gone/${i}`);
    const urls = [`${site.server.url}/cli/chain/0`, ...refused].join('\n');
    const run = await runCli(['batch', '-', '--format', 'links', '--store', 'memory'], { cwd: site.dir, input: urls });
    expect(run.code, run.stderr).toBe(0);
    // Before: "… and 2 more: crawlkit status <id> --errors --store "memory"", which answers JOB_NOT_FOUND.
    expect(run.stderr).toContain(
      '… and 2 more (--store memory keeps nothing after this command: the --json answer and the --out manifest list',
    );
    expect(run.stderr).not.toContain('crawlkit status');

    const { result } = await interruptedCrawl(site, ['--ndjson', '--store', 'memory']);
    expect(result.code, result.stderr).toBe(130);
    // Before: "Resume with: crawlkit resume <id> --store "memory"", a job that is gone.
    expect(result.stderr).toMatch(/Interrupted: \d+ pages? kept\. The job is gone with it \(--store memory keeps/);
    expect(result.stderr).not.toContain('crawlkit resume');
  });

  it('--strict: a batch done with a failed page exits 3, one done without 0, where both exit 0', async () => {
    const good = `${site.server.url}/cli/chain/0`;
    const failed = await site.cli(
      ['batch', '-', '--format', 'links', '--strict'],
      `${good}\nhttp://127.0.0.1:1/gone\n`,
    );
    expect(failed.code, failed.stderr).toBe(3);
    expect(failed.stderr).toContain('1 page, 1 error');
    const clean = await site.cli(['batch', '-', '--format', 'links', '--strict'], `${good}\n`);
    expect(clean.code, clean.stderr).toBe(0);
  });

  it('skipped lines: stderr names the first 20, --json and the --out manifest list them all', async () => {
    // A list saved on Windows (BOM, CRLF) with a comment, a blank line and 25 lines that are not URLs.
    const invalid = Array.from({ length: 25 }, (_, i) => `not a url ${i}`);
    const good = [`${site.server.url}/cli/chain/0`, `${site.server.url}/cli/chain/1`];
    const list = `\uFEFF# nightly list\r\n${[good[0], '', ...invalid, good[1]].join('\r\n')}\r\n`;
    const out = join(site.dir, 'invalid-out');
    const run = await site.cli(['batch', '-', '--ignore-invalid-urls', '--json', '--out', out], list);
    expect(run.code, run.stderr).toBe(0);
    const note = run.stderr.split('\n').find((line) => line.startsWith('skipped invalid URLs: '));
    expect(note).toBe(
      `skipped invalid URLs: ${invalid.slice(0, 20).join(', ')}, … and 5 more ` +
        "(all in --json's invalidURLs and --out's manifest.json)",
    );
    const answer = JSON.parse(run.stdout) as { total: number; invalidURLs: string[] };
    expect(answer.total).toBe(2);
    expect(answer.invalidURLs).toEqual(invalid);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { invalidURLs: string[] };
    expect(manifest.invalidURLs).toEqual(invalid);
  });
});

describe('a crawl whose first page fails', () => {
  it('ends failed and says why: not a site without pages', async () => {
    const run = await site.cli(['crawl', 'http://127.0.0.1:1/', '--timeout', '5000', '--sitemap', 'skip']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/crawl \S+ failed: 0 pages, 1 error, 0 credits/);
    expect(run.stderr).toContain(
      'The job failed: No page was crawled: http://127.0.0.1:1/ failed (SCRAPE_CONNECTION_ERROR): Connection to 127.0.0.1:1 refused',
    );
  });

  it('says why with --quiet too (a cron job keeps the reason in its log)', async () => {
    const run = await site.cli(['crawl', 'http://127.0.0.1:1/', '--timeout', '5000', '--sitemap', 'skip', '--quiet']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/crawl \S+ failed: 0 pages, 1 error, 0 credits/);
    expect(run.stderr).toContain(
      'The job failed: No page was crawled: http://127.0.0.1:1/ failed (SCRAPE_CONNECTION_ERROR)',
    );
  });
});
