/** The built `crawlkit` command against the fixture site: every command, outputs, exit codes, Ctrl-C and resume. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type Document, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer, type Routes } from '../fixtures/server.ts';
import { CLI, ensureBuilt, runCli, shellQuote, startCli, type CliResult } from './cli-helpers.ts';

const CHAIN_LENGTH = 8;

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

let server: FixtureServer;
let dir: string;
let store: string;

beforeAll(async () => {
  ensureBuilt();
  server = await startFixtureServer({ routes: chainRoutes });
  dir = mkdtempSync(join(tmpdir(), 'ck-cli-'));
  store = join(dir, 'store');
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[], input?: string): Promise<CliResult> =>
  runCli([...args, '--store', store], { cwd: dir, ...(input !== undefined ? { input } : {}) });

const jobIdOf = (stderr: string): string => {
  const match = /(?:crawl|batch) ([0-9a-f-]{36}) started/.exec(stderr);
  if (!match) throw new Error(`no job id in: ${stderr}`);
  return match[1]!;
};

describe('crawlkit --help and --version', { timeout: 120_000 }, () => {
  it('prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(join(CLI, '../../package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version'], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it('lists every command, with examples for each', async () => {
    const top = await runCli(['--help'], { cwd: dir });
    expect(top.code).toBe(0);
    for (const command of ['scrape', 'crawl', 'batch', 'map', 'status', 'cancel', 'resume', 'cache']) {
      expect(top.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
      const help = await runCli([command, '--help'], { cwd: dir });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Examples:');
      expect(help.stdout).toContain(`$ crawlkit ${command}`);
      if (command === 'scrape') {
        expect(help.stdout).toContain('--only-main-content');
        expect(help.stdout).toContain('--body <file>');
      }
    }
  });

  it('exits 2 on a usage mistake or without a command', async () => {
    const unknown = await runCli(['scrape', `${server.url}/`, '--no-such-flag'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--no-such-flag'");
    expect((await runCli([], { cwd: dir })).code).toBe(2);
  });
});

describe('crawlkit scrape', { timeout: 120_000 }, () => {
  it('prints the markdown of the page', async () => {
    const result = await cli(['scrape', `${server.url}/articles/first-post.html`]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# Sharpening a Hand Plane/);
    expect(result.stdout).not.toContain('<nav');
  });

  it('prints the v2 response with --json and documents with --ndjson', async () => {
    const url = `${server.url}/articles/first-post.html`;
    const json = await cli(['scrape', url, '--format', 'markdown,links', '--json']);
    expect(json.code).toBe(0);
    const response = JSON.parse(json.stdout) as { success: boolean; data: Document };
    expect(response.success).toBe(true);
    expect(response.data.metadata.sourceURL).toBe(url);
    expect(response.data.links!.length).toBeGreaterThan(0);
    expect(typeof response.data.markdown).toBe('string');

    const ndjson = await cli(['scrape', url, '--format', 'links', '--ndjson']);
    const lines = ndjson.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const doc = JSON.parse(lines[0]!) as Document;
    expect(doc.links).toEqual(response.data.links);
    expect(doc.markdown).toBeUndefined();
  });

  it('maps flags onto the v2 body and takes a whole body with --body (flags win)', async () => {
    const bodyFile = join(dir, 'scrape-body.json');
    writeFileSync(
      bodyFile,
      JSON.stringify({ url: `${server.url}/articles/first-post.html`, formats: ['html'], onlyMainContent: true }),
    );
    const fromBody = await cli(['scrape', '--body', bodyFile, '--json']);
    expect(fromBody.code).toBe(0);
    const main = (JSON.parse(fromBody.stdout) as { data: Document }).data;
    expect(main.html).toBeDefined();
    expect(main.markdown).toBeUndefined();

    const full = await cli(['scrape', '--body', bodyFile, '--no-only-main-content', '--json']);
    const whole = (JSON.parse(full.stdout) as { data: Document }).data;
    expect(whole.html!.length).toBeGreaterThan(main.html!.length);

    const echoed = await cli(['scrape', `${server.url}/http/echo`, '-H', 'X-Cli-Test: yes', '--format', 'rawHtml']);
    expect(echoed.code).toBe(0);
    expect(echoed.stdout.toLowerCase()).toContain('x-cli-test');
  });

  it('gives the same validation messages as the API, with exit code 2', async () => {
    const engine = new Crawlkit({ store: 'memory' });
    try {
      const cases: [string[], Record<string, unknown>][] = [
        [['--format', 'bogus'], { formats: ['bogus'] }],
        [['--timeout', 'soon'], { timeout: 'soon' }],
      ];
      for (const [flags, body] of cases) {
        const api = (await engine.scrape({ url: `${server.url}/`, ...body })) as ErrorResponse;
        expect(api.success).toBe(false);
        const result = await cli(['scrape', `${server.url}/`, ...flags]);
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(`crawlkit: ${api.error} (BAD_REQUEST)\n`);
      }
      const badUrl = await cli(['scrape', 'ftp://example.com/file']);
      expect(badUrl.code).toBe(2);
    } finally {
      await engine.close();
    }
    const json = await cli(['scrape', `${server.url}/`, '--format', 'bogus', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    writeFileSync(join(dir, 'broken.json'), '{ "url": ');
    const broken = await cli(['scrape', '--body', join(dir, 'broken.json')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('--body is not valid JSON');
  });

  it('exits 2 for an --actions file that cannot be read and for a header the request cannot carry', async () => {
    const missing = join(dir, 'missing-actions.json');
    const actions = await cli(['scrape', `${server.url}/`, '--actions', `@${missing}`]);
    expect(actions.code).toBe(2);
    expect(actions.stderr).toContain(`Cannot read --actions ${missing}`);
    const crlf = await cli(['scrape', `${server.url}/`, '-H', 'X-Note: first\r\nX-Injected: 1']);
    expect(crlf.code).toBe(2);
    expect(crlf.stderr).toMatch(/header.*\(SCRAPE_INVALID_REQUEST\)\n$/);
  });

  it('exits 1 when the page cannot be fetched', async () => {
    const closed = await startFixtureServer();
    const url = `${closed.url}/`;
    await closed.close();
    const result = await cli(['scrape', url, '--timeout', '5000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^crawlkit: .+\(SCRAPE_[A-Z_]+\)\n$/);
  });

  it('writes one file per format and a manifest with --out', async () => {
    const out = join(dir, 'scrape-out');
    const result = await cli([
      'scrape',
      `${server.url}/docs/getting-started.html`,
      '--format',
      'markdown,html,rawHtml,links',
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(readdirSync(out).sort()).toEqual([
      'docs-getting-started.html',
      'docs-getting-started.json',
      'docs-getting-started.md',
      'docs-getting-started.raw.html',
      'manifest.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      pages: { url: string; files: Record<string, string> }[];
    };
    expect(manifest.pages).toHaveLength(1);
    expect(manifest.pages[0]!.files).toMatchObject({
      markdown: 'docs-getting-started.md',
      rawHtml: 'docs-getting-started.raw.html',
    });
    const rest = JSON.parse(readFileSync(join(out, 'docs-getting-started.json'), 'utf8')) as Document;
    expect(rest.links!.length).toBeGreaterThan(0);
    expect(rest.markdown).toBeUndefined();
    expect(readFileSync(join(out, 'docs-getting-started.raw.html'), 'utf8')).toContain('<html');
  });
});

describe('crawlkit crawl', { timeout: 120_000 }, () => {
  it('crawls into --out with a manifest listing every page', async () => {
    const out = join(dir, 'crawl-out');
    const result = await cli(['crawl', `${server.url}/`, '--limit', '5', '--crawl-entire-domain', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/crawl [0-9a-f-]{36} completed: 5 pages, 0 errors/);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      status: string;
      total: number;
      jobId: string;
      pages: { url: string; files: { markdown: string } }[];
    };
    expect(manifest).toMatchObject({ status: 'completed', total: 5, jobId: jobIdOf(result.stderr) });
    expect(manifest.pages).toHaveLength(5);
    for (const page of manifest.pages) {
      expect(readFileSync(join(out, page.files.markdown), 'utf8').length).toBeGreaterThan(0);
    }
    expect(manifest.pages.map((p) => p.files.markdown)).toContain('index.md');
  });

  it('streams NDJSON and puts scrape flags under scrapeOptions', async () => {
    const result = await cli([
      'crawl',
      `${server.url}/cli/chain/0`,
      '--crawl-entire-domain',
      '--limit',
      '3',
      '--format',
      'links',
      '--ndjson',
    ]);
    expect(result.code).toBe(0);
    const docs = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Document);
    expect(docs).toHaveLength(3);
    for (const doc of docs) {
      expect(doc.links).toBeDefined();
      expect(doc.markdown).toBeUndefined();
    }
  });

  it('refuses a bad include path regex like the API', async () => {
    const result = await cli(['crawl', `${server.url}/`, '--include-path', '(']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^crawlkit: .*regular expression.*\(BAD_REQUEST\)\n$/i);
  });
});

describe('crawlkit batch', { timeout: 120_000 }, () => {
  it('reads one URL a line from a file', async () => {
    const list = join(dir, 'urls.txt');
    writeFileSync(
      list,
      `# fixture pages\n${server.url}/articles/first-post.html\n\n${server.url}/docs/getting-started.html\n`,
    );
    const result = await cli(['batch', list, '--json']);
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout) as { status: string; total: number; data: Document[] };
    expect(status).toMatchObject({ status: 'completed', total: 2 });
    expect(status.data.map((d) => d.metadata.sourceURL).sort()).toEqual([
      `${server.url}/articles/first-post.html`,
      `${server.url}/docs/getting-started.html`,
    ]);
  });

  it('reads a JSON array from stdin and prints markdown pages', async () => {
    const urls = [`${server.url}/articles/first-post.html`, `${server.url}/forum/thread.html`];
    const result = await cli(['batch', '-'], JSON.stringify(urls));
    expect(result.code).toBe(0);
    for (const url of urls) expect(result.stdout).toContain(`<!-- ${url} -->`);
    expect(result.stdout).toContain('# Sharpening a Hand Plane');
  });

  it('takes a whole v2 batch body and reports failed pages', async () => {
    const body = join(dir, 'batch-body.json');
    writeFileSync(body, JSON.stringify({ urls: [`${server.url}/status/500`], formats: ['markdown'] }));
    const result = await cli(['batch', body, '--ndjson']);
    expect(result.stderr).toContain('batch ');
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout.trim()) as Document;
    expect(doc.metadata.statusCode).toBe(500);
  });

  it('skips invalid URLs with --ignore-invalid-urls and says which; without it refuses the batch', async () => {
    const list = `${server.url}/articles/first-post.html\nnot-a-url\n`;
    const refused = await cli(['batch', '-'], list);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('(BAD_REQUEST)');
    const lenient = await cli(['batch', '-', '--ignore-invalid-urls', '--json'], list);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain('skipped invalid URLs: not-a-url');
    const status = JSON.parse(lenient.stdout) as { status: string; total: number };
    expect(status).toMatchObject({ status: 'completed', total: 1 });
  });

  it('exits 2 on an empty list', async () => {
    const result = await cli(['batch', '-'], '\n# nothing\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('urls must contain at least one URL');
  });
});

describe('crawlkit map', { timeout: 120_000 }, () => {
  it('prints the URLs of the site, one a line', async () => {
    const result = await cli(['map', `${server.url}/`]);
    expect(result.code).toBe(0);
    const urls = result.stdout.trim().split('\n');
    expect(urls).toContain(`${server.url}/articles/first-post.html`);
    expect(urls.every((u) => u.startsWith(server.url))).toBe(true);
  });

  it('searches and prints the v2 response with --json', async () => {
    const result = await cli(['map', `${server.url}/`, '--search', 'getting started', '--json']);
    expect(result.code).toBe(0);
    const response = JSON.parse(result.stdout) as { success: boolean; links: { url: string }[] };
    expect(response.success).toBe(true);
    expect(response.links[0]!.url).toBe(`${server.url}/docs/getting-started.html`);
  });
});

/** Starts a slow crawl, waits for its first page on stdout, then sends Ctrl-C (SIGINT). */
async function interruptedCrawl(out: string): Promise<{ id: string; result: CliResult }> {
  const child = startCli(
    [
      'crawl',
      `${server.url}/cli/chain/0`,
      '--crawl-entire-domain',
      '--max-concurrency',
      '1',
      '--max-age',
      '0',
      '--ndjson',
      '--out',
      out,
      '--store',
      store,
    ],
    { cwd: dir },
  );
  await new Promise<void>((resolve) => {
    child.stdout!.on('data', () => resolve());
    void child.result.then(() => resolve());
  });
  child.kill('SIGINT');
  const result = await child.result;
  return { id: jobIdOf(result.stderr), result };
}

describe('Ctrl-C, status, resume and cancel', { timeout: 120_000 }, () => {
  it('keeps what was scraped, says how to resume, and resume finishes the job', async () => {
    const out = join(dir, 'interrupted');
    const { id, result } = await interruptedCrawl(out);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(`crawlkit resume ${id}`);
    const kept = result.stdout.trim().split('\n').length;
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThan(CHAIN_LENGTH);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { status: string; pages: [] };
    expect(manifest.status).toBe('interrupted');
    expect(manifest.pages).toHaveLength(kept);

    const status = await cli(['status', id]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/status: +scraping/);
    expect(status.stdout).toMatch(/kind: +crawl/);

    const resumed = await cli(['resume', id, '--out', out, '--quiet']);
    expect(resumed.code).toBe(0);
    const after = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { status: string; pages: [] };
    expect(after).toMatchObject({ status: 'completed' });
    expect(after.pages).toHaveLength(CHAIN_LENGTH);

    const final = await cli(['status', id, '--json']);
    expect(JSON.parse(final.stdout)).toMatchObject({ success: true, status: 'completed', total: CHAIN_LENGTH });

    const cancelDone = await cli(['cancel', id]);
    expect(cancelDone.code).toBe(1);
    expect(cancelDone.stderr).toContain('JOB_ALREADY_COMPLETED');
  });

  it('cancels an unfinished job, which then no longer resumes', async () => {
    const { id, result } = await interruptedCrawl(join(dir, 'to-cancel'));
    expect(result.code).toBe(130);
    const cancelled = await cli(['cancel', id]);
    expect(cancelled).toMatchObject({ code: 0, stdout: `cancelled crawl ${id}\n` });
    const status = await cli(['status', id, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'cancelled' });
    const resumed = await cli(['resume', id]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain('JOB_NOT_RESUMABLE');
  });

  it('exits 2 for a malformed id and 1 for an unknown one', async () => {
    const malformed = await cli(['status', 'not-a-uuid']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('Invalid job ID format');
    const unknown = await cli(['status', '01234567-89ab-7def-8123-456789abcdef']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('JOB_NOT_FOUND');
  });
});

describe('crawlkit cache', { timeout: 120_000 }, () => {
  it('clear empties the page cache; prune reports what it removed', async () => {
    const url = `${server.url}/products/widget.html`;
    const cacheState = async () =>
      (JSON.parse((await cli(['scrape', url, '--json'])).stdout) as { data: Document }).data.metadata.cacheState;
    await cacheState();
    expect(await cacheState()).toBe('hit');
    const cleared = await cli(['cache', 'clear']);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('cleared the page cache');
    expect(await cacheState()).toBe('miss');

    const pruned = await cli(['cache', 'prune', '--max-age', '0']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(/^pruned \d+ cached pages? from /);
    expect((await cli(['cache', 'flush'])).code).toBe(2);
  });

  it('warns on stderr when the store file was truncated to nothing', async () => {
    const own = join(dir, 'truncated-store');
    expect((await runCli(['cache', 'clear', '--store', own], { cwd: dir })).stderr).not.toContain('warning');
    truncateSync(join(own, 'crawlkit.db'), 0);
    const result = await runCli(['cache', 'prune', '--store', own, '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^crawlkit: warning: The store file .+ was empty \(0 bytes\)/);
  });
});

describe('progress bar', { timeout: 120_000 }, () => {
  const crawlArgs = () => [
    'crawl',
    `${server.url}/cli/chain/0`,
    '--crawl-entire-domain',
    '--limit',
    '4',
    '--max-age',
    '0',
    '--store',
    store,
    '--out',
    join(dir, `progress-${Math.random().toString(36).slice(2)}`),
  ];

  /**
   * Runs the CLI in a pseudo-terminal (util-linux `script`) and resolves to everything the terminal showed. Async: the
   * fixture server lives in this process and must keep answering.
   */
  const inTerminal = (args: string[]): Promise<string> => {
    const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
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
    const piped = await runCli(crawlArgs(), { cwd: dir });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain('pages/s');
    expect(piped.stderr).not.toContain('\u001b[');
    const quiet = await inTerminal([...crawlArgs(), '--quiet']);
    expect(quiet).not.toContain('pages/s');
    expect(quiet).not.toContain('completed:');
  });
});
