/**
 * The `crawlkit` command against the fixture site: crawl, batch and map, their outputs and exit codes (--help and
 * scrape: cli-commands.test.ts). The commands run in the test's process.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type Document } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startChangingSite } from '../fixtures/changing-site.ts';
import { runCli } from './cli-helpers.ts';
import { jobIdOf, useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();
const { cli } = site;

describe('crawlkit crawl', { timeout: 120_000 }, () => {
  it('prints the change feed with --changes, across processes sharing the store', async () => {
    const changing = await startChangingSite({
      '/kept.html': { title: 'Kept', text: 'Unchanged words.', modifiedAt: 0 },
      '/gone.html': { title: 'Gone', text: 'Removed soon.', modifiedAt: 0 },
    });
    try {
      const args = ['crawl', `${changing.url}/`, '--changes', '--tag', 'cli-feed', '--max-age', '1'];
      const first = await cli(args);
      expect(first.code).toBe(0);
      expect(first.stderr).toContain('changes first run of this lineage: 3 new, 0 changed, 0 removed, 0 same');
      changing.pages.delete('/gone.html');
      const second = await cli(args, undefined, { process: true });
      expect(second.code).toBe(0);
      expect(second.stderr).toContain(
        `changes since crawl ${jobIdOf(first.stderr)}: 0 new, 1 changed, 1 removed, 1 same`,
      );
      expect(second.stderr).toContain(`  changed  ${changing.url}/\n`);
      expect(second.stderr).toContain(`  removed  ${changing.url}/gone.html\n`);
      expect(changing.notModified.get('/kept.html')).toBe(1);
    } finally {
      await changing.close();
    }
  });

  it('crawls into --out with a manifest listing every page', async () => {
    const out = join(site.dir, 'crawl-out');
    const result = await cli(['crawl', `${site.server.url}/`, '--limit', '5', '--crawl-entire-domain', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/crawl [0-9a-f-]{36} completed: 5 pages, 0 errors, 5 credits/);
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
      `${site.server.url}/cli/chain/0`,
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

  it('names the pages that answered an HTTP error after the summary (a mistyped start URL)', async () => {
    const result = await cli(['crawl', `${site.server.url}/http/status/404`, '--limit', '2']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/completed: 1 page, 0 errors, 1 credit/);
    expect(result.stderr).toContain(`note: 1 page answered an HTTP error (404 ${site.server.url}/http/status/404)`);
    // Its warning (no main content on an error page) is not listed again.
    expect(result.stderr).not.toContain('came with a warning');
    const fine = await cli(['crawl', `${site.server.url}/cli/chain/0`, '--limit', '1']);
    expect(fine.stderr).not.toContain('HTTP error');
  });

  it('refuses a bad include path regex like the API', async () => {
    const result = await cli(['crawl', `${site.server.url}/`, '--include-path', '(']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^crawlkit: .*regular expression.*\(CLI_USAGE\)\n$/i);
  });
});

describe('crawlkit batch', { timeout: 120_000 }, () => {
  it('reads one URL a line from a file', async () => {
    const list = join(site.dir, 'urls.txt');
    writeFileSync(
      list,
      `# fixture pages\n${site.server.url}/articles/first-post.html\n\n${site.server.url}/docs/getting-started.html\n`,
    );
    const result = await cli(['batch', list, '--json']);
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout) as { status: string; total: number; data: Document[] };
    expect(status).toMatchObject({ status: 'completed', total: 2 });
    expect(status.data.map((d) => d.metadata.sourceURL).sort()).toEqual([
      `${site.server.url}/articles/first-post.html`,
      `${site.server.url}/docs/getting-started.html`,
    ]);
  });

  it("lists the pages that failed in --json's answer, which the v2 status leaves out, even with --quiet", async () => {
    const urls = [`${site.server.url}/articles/first-post.html`, `${site.server.url}/hostile/loop/a`];
    const result = await cli(['batch', '-', '--json', '--quiet'], JSON.stringify(urls));
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { total: number; data: Document[]; errors: unknown[] };
    expect(answer.data).toHaveLength(1);
    expect(answer.errors).toEqual([
      { url: `${site.server.url}/hostile/loop/a`, error: expect.stringMatching(/redirect/i), code: expect.any(String) },
    ]);
  });

  it('names the pages that came with a warning after the summary, which said nothing of them', async () => {
    const urls = [`${site.server.url}/articles/first-post.html`, `${site.server.url}/forum/thread.html`];
    const result = await cli(['batch', '-', '--engine', 'http', '--mobile', '--format', 'links'], JSON.stringify(urls));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('note: 2 pages came with a warning');
    for (const url of urls) {
      expect(result.stderr).toContain(`${url}: The engine used does not support the following features: mobile`);
    }
  });

  it('reads a JSON array from stdin and prints markdown pages', async () => {
    const urls = [`${site.server.url}/articles/first-post.html`, `${site.server.url}/forum/thread.html`];
    const result = await cli(['batch', '-'], JSON.stringify(urls), { process: true });
    expect(result.code).toBe(0);
    for (const url of urls) expect(result.stdout).toContain(`<!-- ${url} -->`);
    expect(result.stdout).toContain('# Sharpening a Hand Plane');
  });

  it('counts one page and one credit in the singular', async () => {
    const result = await cli(['batch', '-'], JSON.stringify([`${site.server.url}/articles/first-post.html`]));
    expect(result.stderr).toMatch(/batch [0-9a-f-]{36} completed: 1 page, 0 errors, 1 credit\n/);
  });

  it('takes a whole v2 batch body and reports failed pages', async () => {
    const body = join(site.dir, 'batch-body.json');
    writeFileSync(body, JSON.stringify({ urls: [`${site.server.url}/status/500`], formats: ['markdown'] }));
    const result = await cli(['batch', body, '--ndjson']);
    expect(result.stderr).toContain('batch ');
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout.trim()) as Document;
    expect(doc.metadata.statusCode).toBe(500);
  });

  it('skips invalid URLs with --ignore-invalid-urls and says which; without it refuses the batch', async () => {
    const list = `${site.server.url}/articles/first-post.html\nnot-a-url\n`;
    const refused = await cli(['batch', '-'], list);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('(BAD_REQUEST)');
    expect(refused.stderr).toContain('--ignore-invalid-urls scrapes the valid URLs and names the ones it skips');
    // the refusal's urls[i] counts URLs; the note gives the line, past comments and blank lines
    const commented = await cli(['batch', '-'], `# pages\n\n${list}`);
    expect(commented.stderr).toContain('urls[1]');
    expect(commented.stderr).toContain('urls[1] is line 4 of the input');
    // --quiet drops the notes, not what tells the error's place and its way out
    const quiet = await cli(['batch', '-', '--quiet'], `# pages\n\n${list}`);
    expect(quiet.code).toBe(2);
    expect(quiet.stderr).toContain('urls[1] is line 4 of the input');
    expect(quiet.stderr).toContain('--ignore-invalid-urls scrapes the valid URLs');
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
    const result = await cli(['map', `${site.server.url}/`], undefined, { process: true });
    expect(result.code).toBe(0);
    const urls = result.stdout.trim().split('\n');
    expect(urls).toContain(`${site.server.url}/articles/first-post.html`);
    expect(urls.every((u) => u.startsWith(site.server.url))).toBe(true);
  });

  it('searches and prints the v2 response with --json', async () => {
    const result = await cli(['map', `${site.server.url}/`, '--search', 'getting started', '--json']);
    expect(result.code).toBe(0);
    const response = JSON.parse(result.stdout) as { success: boolean; links: { url: string }[] };
    expect(response.success).toBe(true);
    expect(response.links[0]!.url).toBe(`${site.server.url}/docs/getting-started.html`);
  });

  it('keeps the links --include-path and --exclude-path admit', async () => {
    const flags = ['--include-path', '^/(docs|articles)/', '--exclude-path', 'base-href'];
    const result = await cli(['map', `${site.server.url}/`, ...flags]);
    expect(result.code).toBe(0);
    const paths = result.stdout
      .trim()
      .split('\n')
      .map((u) => new URL(u).pathname);
    expect(paths).toEqual(expect.arrayContaining(['/docs/getting-started.html', '/articles/first-post.html']));
    // A sitemap's `/docs/` is judged as found, then listed without its slash.
    expect(paths.every((p) => /^\/(docs|articles)(\/|$)/.test(p) && !p.includes('base-href'))).toBe(true);
  });

  it('leaves no store in the directory it runs in, as it stores nothing; scrape still makes one', async () => {
    const cwd = join(site.dir, 'map-here');
    mkdirSync(cwd);
    const mapped = await runCli(['map', `${site.server.url}/`], { cwd });
    expect(mapped.code).toBe(0);
    expect(mapped.stdout).toContain(`${site.server.url}/articles/first-post.html`);
    expect(readdirSync(cwd)).toEqual([]);
    expect((await runCli(['scrape', `${site.server.url}/`], { cwd })).code).toBe(0);
    expect(readdirSync(join(cwd, '.crawlkit'))).toContain('crawlkit.db');
  });

  it('leaves no store behind when a crawl, schedule or batch is refused for its body', async () => {
    const cwd = join(site.dir, 'refused-here');
    mkdirSync(cwd);
    writeFileSync(join(cwd, 'urls.txt'), `${site.server.url}/\n`);
    const refusals: [string[], string][] = [
      [['crawl', `${site.server.url}/`, '--limit', '0'], '--limit: Bad Request: limit: Too small'],
      [['crawl', `${site.server.url}/`, '--limit', '0', '--every', '1h'], '--limit: Bad Request: limit: Too small'],
      [['batch', 'urls.txt', '--max-concurrency', '0'], '--max-concurrency: Bad Request: maxConcurrency: Too small'],
    ];
    for (const [args, message] of refusals) {
      const refused = await runCli(args, { cwd });
      expect(refused, args.join(' ')).toMatchObject({ code: 2 });
      expect(refused.stderr).toContain(message);
      expect(readdirSync(cwd), args.join(' ')).toEqual(['urls.txt']);
    }
  });
});
