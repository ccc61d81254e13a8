/** The built `crawlkit` command's jobs and store: Ctrl-C, status, resume and cancel, the cache commands, the progress bar. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readdirSync, truncateSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { verifyWebhook, type Document } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { CLI, runCli, shellQuote } from './cli-helpers.ts';
import { startReceiver } from './helpers-batch.ts';
import { interruptedCrawl as interruptCrawl, startChainCrawl } from './helpers/cli-interrupt.ts';
import { CHAIN_LENGTH, useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();
const { cli } = site;

const urlsOf = (ndjson: string): (string | undefined)[] =>
  ndjson
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as Document).metadata?.sourceURL)
    .toSorted();

/** Starts a slow crawl, waits for its first page on stdout, then sends Ctrl-C (SIGINT). */
const interruptedCrawl = (out: string) => interruptCrawl(site, ['--ndjson', '--out', out]);

describe('Ctrl-C, status, resume and cancel', { timeout: 120_000 }, () => {
  it('keeps what was scraped, says how to resume, and resume finishes the job', async () => {
    const out = join(site.dir, 'interrupted');
    const { id, result } = await interruptedCrawl(out);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(`crawlkit resume ${id}`);
    const kept = result.stdout.trim().split('\n').length;
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThan(CHAIN_LENGTH);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { status: string; pages: [] };
    expect(manifest.status).toBe('interrupted');
    expect(manifest.pages).toHaveLength(kept);

    // The built command once for each of status and resume; the other runs are in this process.
    const status = await cli(['status', id], undefined, { process: true });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/status: +scraping/);
    expect(status.stdout).toMatch(/kind: +crawl/);

    const resumed = await cli(['resume', id, '--out', out, '--quiet'], undefined, { process: true });
    expect(resumed.code).toBe(0);
    const after = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { status: string; pages: [] };
    expect(after).toMatchObject({ status: 'completed' });
    expect(after.pages).toHaveLength(CHAIN_LENGTH);

    const final = await cli(['status', id, '--json']);
    expect(JSON.parse(final.stdout)).toMatchObject({ success: true, status: 'completed', total: CHAIN_LENGTH });

    // A finished job has nothing to resume: --all prints its pages (its --help example), without it the refusal
    // names --all.
    const all = await cli(['resume', id, '--all', '--json']);
    expect(all.code).toBe(0);
    const job = JSON.parse(all.stdout) as { status: string; data: Document[] };
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(CHAIN_LENGTH);
    const refused = await cli(['resume', id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `The job is completed; only running jobs resume. To print its pages: crawlkit resume ${id} --all --store`,
    );

    const cancelDone = await cli(['cancel', id]);
    expect(cancelDone.code).toBe(1);
    expect(cancelDone.stderr).toContain('JOB_ALREADY_COMPLETED');
  });

  it('cancels an unfinished job, which then no longer resumes', async () => {
    const { id, result } = await interruptedCrawl(join(site.dir, 'to-cancel'));
    expect(result.code).toBe(130);
    const cancelled = await cli(['cancel', id]);
    expect(cancelled).toMatchObject({ code: 0, stdout: `cancelled crawl ${id}\n` });
    const status = await cli(['status', id, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'cancelled' });
    const text = await cli(['status', id]);
    expect(text.stdout).toMatch(/^cancelled: {3}\d{4}-/m);
    expect(text.stdout).not.toContain('completed:');
    const resumed = await cli(['resume', id]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain('JOB_NOT_RESUMABLE');
    // --all prints what the cancelled job kept, and exits 1 as the job did not complete
    const all = await cli(['resume', id, '--all', '--ndjson']);
    expect(all.code).toBe(1);
    expect(urlsOf(all.stdout)).toEqual(urlsOf(result.stdout));
  });

  it('crawl --json --quiet names its job on stderr as it starts (to cancel it from another shell) and in its answer', async () => {
    const child = startChainCrawl(site, ['--json', '--quiet']);
    let stderr = '';
    const id = await new Promise<string | undefined>((resolve) => {
      child.stderr!.on('data', (chunk: string) => {
        stderr += chunk;
        const started = /^crawl ([0-9a-f-]{36}) started\n/.exec(stderr);
        if (started) resolve(started[1]);
      });
      void child.result.then(() => resolve(undefined));
    });
    expect(id, stderr).toBeDefined();
    const cancelled = await cli(['cancel', id!]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    const result = await child.result;
    expect(result.code).toBe(1);
    const answer = JSON.parse(result.stdout) as { id: string; status: string };
    expect(answer).toMatchObject({ id, status: 'cancelled' });
    // --quiet keeps only that line: no summary, no progress
    expect(result.stderr).toBe(`crawl ${id} started\n`);
  });

  it('exits 2 for a malformed id and 1 for an unknown one', async () => {
    const malformed = await cli(['status', 'not-a-uuid']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('Invalid job ID format');
    const unknown = await cli(['status', '01234567-89ab-7def-8123-456789abcdef']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('JOB_NOT_FOUND');
    // each directory has a store of its own by default: the message names the one looked in, and how to pick another
    expect(unknown.stderr).toContain(
      `Job not found in the store ${site.store} (a job is kept in the store of the command that started it: pass its --store)`,
    );
  });

  it('says a store that is not there holds no job, without making it', async () => {
    const missing = join(site.dir, 'no-store-here');
    const result = await runCli(['status', '01234567-89ab-7def-8123-456789abcdef', '--store', missing], {
      cwd: site.dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Job not found: there is no store at ${missing}`);
    expect(existsSync(missing)).toBe(false);
  });
});

describe('crawlkit cache', { timeout: 120_000 }, () => {
  it('clear empties the page cache; prune reports what it removed', async () => {
    const url = `${site.server.url}/products/widget.html`;
    const cacheState = async () =>
      (JSON.parse((await cli(['scrape', url, '--json'])).stdout) as { data: Document }).data.metadata.cacheState;
    await cacheState();
    expect(await cacheState()).toBe('hit');
    const cleared = await cli(['cache', 'clear'], undefined, { process: true });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('cleared the page cache');
    expect(await cacheState()).toBe('miss');

    const pruned = await cli(['cache', 'prune', '--max-age', '0']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(/^pruned \d+ cached pages? from /);
    expect((await cli(['cache', 'flush'])).code).toBe(2);
  });

  it('prune --history-max-age removes the change history of pages not tracked since', async () => {
    const url = `${site.server.url}/products/widget.html`;
    const tracked = async () =>
      (JSON.parse((await cli(['scrape', url, '--format', 'markdown,changeTracking'])).stdout) as Document)
        .changeTracking?.changeStatus;
    await tracked();
    expect(await tracked()).toBe('same');
    const kept = await cli(['cache', 'prune', '--history-max-age', '3600000']);
    expect(kept.stdout).toMatch(/^pruned \d+ cached pages? and the change history of 0 pages from /);
    expect(await tracked()).toBe('same');
    const pruned = await cli(['cache', 'prune', '--history-max-age', '0']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(/^pruned \d+ cached pages? and the change history of [1-9]\d* pages? from /);
    expect(await tracked()).toBe('new');
  });

  it('clear and prune where there is no store say so, without making one', async () => {
    const cwd = join(site.dir, 'no-cache-here');
    mkdirSync(cwd);
    const cleared = await runCli(['cache', 'clear'], { cwd });
    expect(cleared).toMatchObject({ code: 0, stdout: 'cleared nothing: there is no store at ./.crawlkit\n' });
    const pruned = await runCli(['cache', 'prune', '--max-age', '0'], { cwd });
    expect(pruned).toMatchObject({ code: 0, stdout: 'pruned 0 cached pages: there is no store at ./.crawlkit\n' });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('warns on stderr when the store file was truncated to nothing', async () => {
    const own = join(site.dir, 'truncated-store');
    const scraped = await runCli(['scrape', `${site.server.url}/products/widget.html`, '--store', own], {
      cwd: site.dir,
    });
    expect(scraped.stderr).not.toContain('warning');
    truncateSync(join(own, 'crawlkit.db'), 0);
    const result = await runCli(['cache', 'prune', '--store', own, '--quiet'], { cwd: site.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^crawlkit: warning: The store file .+ was empty \(0 bytes\)/);
  });
});

describe('progress bar', { timeout: 120_000 }, () => {
  const crawlArgs = () => [
    'crawl',
    `${site.server.url}/cli/chain/0`,
    '--crawl-entire-domain',
    '--limit',
    '4',
    '--max-age',
    '0',
    '--store',
    site.store,
    '--out',
    join(site.dir, `progress-${Math.random().toString(36).slice(2)}`),
  ];

  /**
   * Runs the CLI in a pseudo-terminal (util-linux `script`) and resolves to everything the terminal showed. Async: the
   * fixture server lives in this process and must keep answering.
   */
  const inTerminal = (args: string[]): Promise<string> => {
    const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: site.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(screen) : reject(new Error(`script exited ${code}: ${screen}`)),
      );
    });
  };

  it('shows pages done/total, pages per second, errors and ETA on a terminal', async () => {
    const screen = await inTerminal(crawlArgs());
    expect(screen).toMatch(/crawl .* [123]\/4 pages \| \d+\.\d pages\/s \| 0 errors \| ETA \d+s/);
    expect(screen).toContain('4/4 pages');
    expect(screen).toMatch(/completed: 4 pages/);
  });

  it('is absent when piped and with --quiet', async () => {
    const piped = await runCli(crawlArgs(), { cwd: site.dir });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain('pages/s');
    expect(piped.stderr).not.toContain('\u001b[');
    const quiet = await inTerminal([...crawlArgs(), '--quiet']);
    expect(quiet).not.toContain('pages/s');
    expect(quiet).not.toContain('completed:');
  });
});

describe('webhooks of the command line', { timeout: 120_000 }, () => {
  it('crawl --webhook signs with CRAWLKIT_WEBHOOK_SECRET, as serve does, and sends the last event before exiting', async () => {
    const receiver = await startReceiver();
    try {
      const seed = `${site.server.url}/cli/chain/0`;
      const args = ['crawl', seed, '--limit', '2', '--crawl-entire-domain', '--webhook', receiver.url, '--quiet'];
      const result = await runCli([...args, '--store', site.store], {
        cwd: site.dir,
        env: { CRAWLKIT_WEBHOOK_SECRET: 'cli-secret' },
      });
      expect(result.code).toBe(0);
      expect(receiver.events.map((e) => e.payload.type)).toEqual([
        'crawl.started',
        'crawl.page',
        'crawl.page',
        'crawl.completed',
      ]);
      for (const event of receiver.events) expect(verifyWebhook(event.raw, event.headers, 'cli-secret')).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('crawl --webhook waits for a receiver slower than the engine default closeTimeoutMs before exiting', async () => {
    // The last event's receiver answers after 2.5 s: past a library close()'s 2 s, within an attempt's 10 s.
    const answers: string[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const { type } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string };
        setTimeout(
          () => {
            answers.push(`${type} ${req.socket.destroyed ? 'aborted by crawlkit' : 'answered'}`);
            res.writeHead(200).end();
          },
          answers.length >= 3 ? 2_500 : 0,
        );
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const seed = `${site.server.url}/cli/chain/0`;
      const args = ['crawl', seed, '--limit', '2', '--crawl-entire-domain', '--webhook', url, '--quiet'];
      const result = await runCli([...args, '--store', site.store], { cwd: site.dir });
      expect(result.code).toBe(0);
      expect(answers).toHaveLength(4);
      expect(answers.at(-1)).toBe('crawl.completed answered');
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
