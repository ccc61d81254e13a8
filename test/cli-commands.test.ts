/**
 * The `crawlkit` command against the fixture site: --help and scrape, outputs and exit codes (crawl, batch and map:
 * cli-crawl-batch-map.test.ts). The commands run in the test's process; one run of each (and --version) as the built
 * command in a child.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Crawlkit, type Document, type ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startFixtureServer } from '../fixtures/server.ts';
import { CLI, runCli } from './cli-helpers.ts';
import { useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();
const { cli } = site;

describe('crawlkit --help and --version', { timeout: 120_000 }, () => {
  it('prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(join(CLI, '../../package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version'], { cwd: site.dir, process: true });
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it('lists every command, with examples for each', async () => {
    const top = await runCli(['--help'], { cwd: site.dir });
    expect(top.code).toBe(0);
    for (const command of ['scrape', 'crawl', 'batch', 'map', 'status', 'cancel', 'resume', 'cache', 'schedules']) {
      expect(top.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
      const help = await runCli([command, '--help'], { cwd: site.dir });
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
    const unknown = await runCli(['scrape', `${site.server.url}/`, '--no-such-flag'], { cwd: site.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--no-such-flag'");
    expect((await runCli([], { cwd: site.dir })).code).toBe(2);
    for (const command of ['scrape', 'crawl', 'map']) {
      const missing = await runCli([command], { cwd: site.dir });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(
        `crawlkit: missing URL: crawlkit ${command} <url>, or a --body whose JSON has a "url" (CLI_USAGE)\n`,
      );
    }
  });

  it('refuses an --out that is a file not named as one before anything runs', async () => {
    writeFileSync(join(site.dir, 'taken'), 'a file, not a directory');
    for (const command of ['scrape', 'crawl']) {
      const result = await cli([command, `${site.server.url}/articles/first-post.html`, '--out', 'taken']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(
        'crawlkit: --out taken is a file: give a directory (one that does not exist is made) (CLI_USAGE)\n',
      );
    }
  });

  it('saves the output in an --out named as a file (-o page.md), as curl -o and > page.md do', async () => {
    const page = `${site.server.url}/articles/first-post.html`;
    for (const command of ['scrape', 'crawl', 'batch']) {
      const target = command === 'batch' ? '-' : page;
      const file = `${command}.md`;
      const limit = command === 'crawl' ? ['--limit', '1'] : [];
      const result = await cli([command, target, ...limit, '-o', file], `${page}\n`);
      // Before: refused (exit 2), and before that a directory page.md holding manifest.json and the page's files.
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(readFileSync(join(site.dir, file), 'utf8')).toContain('# Sharpening a Hand Plane');
    }
    // Overwritten, as `>` does; --json saves the v2 response.
    writeFileSync(join(site.dir, 'page.json'), 'older content');
    const json = await cli(['scrape', page, '--json', '-o', 'page.json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(site.dir, 'page.json'), 'utf8'))).toMatchObject({ success: true });
    // A command refused before it prints leaves the file as it was.
    const refused = await cli(['scrape', page, '--json', '--ndjson', '-o', 'page.json']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(readFileSync(join(site.dir, 'page.json'), 'utf8'))).toMatchObject({ success: true });
    // A file in a directory that does not exist is refused before anything runs, naming it.
    const missing = await cli(['scrape', page, '-o', 'nowhere/page.md']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'crawlkit: --out nowhere/page.md saves the output as that file, in nowhere, which does not exist (ENOENT). ' +
        'For a directory of that name, write nowhere/page.md/. (CLI_USAGE)\n',
    );
    // A file that cannot take the output (a full disk: /dev/full) is an error naming it, exit 1, not a crash.
    symlinkSync('/dev/full', join(site.dir, 'full.md'));
    const full = await cli(['scrape', page, '-o', 'full.md']);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stderr).toBe(
      'crawlkit: --out full.md could not be written: ENOSPC: no space left on device, write (OUTPUT_UNWRITABLE)\n',
    );
    // Under --json, the code a script matches says what failed (was UNKNOWN_ERROR, "report it").
    const fullJson = await cli(['scrape', page, '--json', '-o', 'full.md']);
    expect(fullJson.code).toBe(1);
    expect(JSON.parse(fullJson.stdout)).toMatchObject({ success: false, code: 'OUTPUT_UNWRITABLE' });
    // An --out directory whose manifest cannot be written (the disk full) names the file, OUTPUT_UNWRITABLE, exit 1.
    mkdirSync(join(site.dir, 'fulldir'));
    symlinkSync('/dev/full', join(site.dir, 'fulldir', 'manifest.json.tmp'));
    const fullDir = await cli(['scrape', page, '-o', 'fulldir/']);
    expect(fullDir.code, fullDir.stderr).toBe(1);
    expect(fullDir.stderr).toMatch(
      /^crawlkit: --out could not be written: .*manifest\.json\.tmp: ENOSPC.* \(OUTPUT_UNWRITABLE\)\n$/,
    );
    // What is printed is text: an image's or a PDF's name is refused, saying a directory gets the image.
    const image = await cli(['scrape', page, '-o', 'shot.png']);
    expect(image.code).toBe(2);
    expect(image.stderr).toContain('--out shot.png reads as an image or PDF file, but what a command prints is text');
    expect(existsSync(join(site.dir, 'shot.png'))).toBe(false);
    // A directory of such a name, written with its slash or made before, is taken.
    const slashed = await cli(['scrape', page, '-o', 'pages.md/']);
    expect(slashed.code, slashed.stderr).toBe(0);
    expect(readdirSync(join(site.dir, 'pages.md'))).toContain('manifest.json');
    const made = await cli(['scrape', page, '-o', 'pages.md']);
    expect(made.code, made.stderr).toBe(0);
    expect(readdirSync(join(site.dir, 'pages.md'))).toContain('manifest.json');
  });

  it('tells a local file given as the URL to use crawlkit parse, not a DNS error about its name', async () => {
    writeFileSync(join(site.dir, 'notes.pdf'), '%PDF-1.4\n');
    for (const command of ['scrape', 'crawl', 'map']) {
      for (const path of ['notes.pdf', './notes.pdf', join(site.dir, 'notes.pdf')]) {
        const result = await runCli([command, path], { cwd: site.dir });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toBe(
          `crawlkit: "${path}" is a local file, not a URL: \`crawlkit parse ${path}\` converts it ` +
            '(for a web page of that name, write its URL with http:// or https://) (CLI_USAGE)\n',
        );
      }
    }
  });
});

describe('crawlkit scrape', { timeout: 120_000 }, () => {
  it('prints the markdown of the page', async () => {
    const result = await cli(['scrape', `${site.server.url}/articles/first-post.html`], undefined, { process: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# Sharpening a Hand Plane/);
    expect(result.stdout).not.toContain('<nav');
  });

  it('prints the v2 response with --json and documents with --ndjson', async () => {
    const url = `${site.server.url}/articles/first-post.html`;
    const json = await cli(['scrape', url, '--format', 'markdown,links', '--json']);
    expect(json.code).toBe(0);
    const response = JSON.parse(json.stdout) as { success: boolean; data: Document };
    expect(response.success).toBe(true);
    expect(response.data.metadata.sourceURL).toBe(url);
    expect(response.data.links!.length).toBeGreaterThan(0);
    expect(typeof response.data.markdown).toBe('string');

    const text = await cli(['scrape', url, '--format', 'links']);
    expect(text.stdout.trim().split('\n')).toEqual(response.data.links);
    // Several formats print as the page's JSON: none of them is left out.
    const several = await cli(['scrape', url, '--format', 'markdown,links']);
    const printed = JSON.parse(several.stdout) as Document;
    expect(printed.links).toEqual(response.data.links);
    expect(printed.markdown).toBe(response.data.markdown);

    const ndjson = await cli(['scrape', url, '--format', 'links', '--ndjson']);
    const lines = ndjson.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const doc = JSON.parse(lines[0]!) as Document;
    expect(doc.links).toEqual(response.data.links);
    expect(doc.markdown).toBeUndefined();
  });

  it('maps flags onto the v2 body and takes a whole body with --body (flags win)', async () => {
    const bodyFile = join(site.dir, 'scrape-body.json');
    writeFileSync(
      bodyFile,
      JSON.stringify({ url: `${site.server.url}/articles/first-post.html`, formats: ['html'], onlyMainContent: true }),
    );
    const fromBody = await cli(['scrape', '--body', bodyFile, '--json']);
    expect(fromBody.code).toBe(0);
    const main = (JSON.parse(fromBody.stdout) as { data: Document }).data;
    expect(main.html).toBeDefined();
    expect(main.markdown).toBeUndefined();

    const full = await cli(['scrape', '--body', bodyFile, '--no-only-main-content', '--json']);
    const whole = (JSON.parse(full.stdout) as { data: Document }).data;
    expect(whole.html!.length).toBeGreaterThan(main.html!.length);

    const echoed = await cli([
      'scrape',
      `${site.server.url}/http/echo`,
      '-H',
      'X-Cli-Test: yes',
      '--format',
      'rawHtml',
    ]);
    expect(echoed.code).toBe(0);
    expect(echoed.stdout.toLowerCase()).toContain('x-cli-test');
  });

  it('gives the validation messages of the API, naming the flag, with exit code 2', async () => {
    const engine = new Crawlkit({ store: 'memory' });
    try {
      const cases: [string[], Record<string, unknown>][] = [
        [['--format', 'bogus'], { formats: ['bogus'] }],
        [['--timeout', 'soon'], { timeout: 'soon' }],
      ];
      for (const [flags, body] of cases) {
        const api = (await engine.scrape({ url: `${site.server.url}/`, ...body })) as ErrorResponse;
        expect(api.success).toBe(false);
        const result = await cli(['scrape', `${site.server.url}/`, ...flags]);
        expect(result.code).toBe(2);
        // The message is the API's, told as the flag that set the field: a flag is wrong (CLI_USAGE), where the
        // --json answer keeps the v2 body's BAD_REQUEST.
        expect(result.stderr).toBe(`crawlkit: ${flags[0]}: ${api.error} (CLI_USAGE)\n`);
        const json = await cli(['scrape', `${site.server.url}/`, ...flags, '--json']);
        expect(json.code).toBe(2);
        expect(JSON.parse(json.stdout)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      }
      const badUrl = await cli(['scrape', 'ftp://example.com/file']);
      expect(badUrl.code).toBe(2);
    } finally {
      await engine.close();
    }
    const json = await cli(['scrape', `${site.server.url}/`, '--format', 'bogus', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    writeFileSync(join(site.dir, 'broken.json'), '{ "url": ');
    const broken = await cli(['scrape', '--body', join(site.dir, 'broken.json')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('--body is not valid JSON');
  });

  it('exits 2 for an --actions file that cannot be read and for a header the request cannot carry', async () => {
    const missing = join(site.dir, 'missing-actions.json');
    const actions = await cli(['scrape', `${site.server.url}/`, '--actions', `@${missing}`]);
    expect(actions.code).toBe(2);
    expect(actions.stderr).toContain(`Cannot read --actions ${missing}`);
    const crlf = await cli(['scrape', `${site.server.url}/`, '-H', 'X-Note: first\r\nX-Injected: 1']);
    expect(crlf.code).toBe(2);
    expect(crlf.stderr).toMatch(/--header: The header X-Note's value holds a line break .*\(CLI_USAGE\)\n$/);
  });

  it('prints an error page with exit 0 and its status once, first in the warning', async () => {
    const result = await cli(['scrape', `${site.server.url}/http/status/404`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Status 404');
    expect(result.stderr).toMatch(
      /^warning: The page answered 404 Not Found; the document is the server's error page\./m,
    );
    expect(result.stderr.split('404').length - 1).toBe(1);
  });

  it('takes --parsers as JSON, and names the flag and what to write when the JSON is bad', async () => {
    const pdf = `${site.server.url}/files/manual.pdf`;
    const two = await cli(['scrape', pdf, '--parsers', '[{"type":"pdf","maxPages":2}]', '--json', '--max-age', '0']);
    expect(two.code, two.stderr).toBe(0);
    expect(JSON.parse(two.stdout)).toMatchObject({ success: true, data: { metadata: { numPages: 2, totalPages: 3 } } });
    const bad = await cli(['scrape', pdf, '--parsers', '[{type:pdf}]']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^crawlkit: --parsers is not valid JSON: .*; write it as --parsers '\[\{"type":"pdf","maxPages":2\}\]' \(CLI_USAGE\)\n$/,
    );
    // an unknown parser's message tells the JSON --parsers takes, not the object form of JavaScript
    const named = await cli(['scrape', pdf, '--parsers', 'pdf:fast']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`Unknown parser 'pdf:fast': write --parsers '[{"type":"pdf","mode":"fast"}]'.`);
    const unknown = await cli(['scrape', pdf, '--parsers', '[{"type":"word"}]']);
    expect(unknown.stderr).toContain(`or JSON: --parsers '[{"type":"pdf","mode":"fast"}]' (pdf's keys: maxPages,`);
  });

  it('exits 1 when the page cannot be fetched', async () => {
    const closed = await startFixtureServer();
    const url = `${closed.url}/`;
    await closed.close();
    const result = await cli(['scrape', url, '--timeout', '5000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^crawlkit: .+\(SCRAPE_[A-Z_]+\)\n$/);
  });

  it('takes --max-body-bytes (http.limits.maxBodyBytes) and names it when a page is over it', async () => {
    const url = `${site.server.url}/articles/first-post.html`;
    const result = await cli(['scrape', url, '--max-body-bytes', '200', '--max-age', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'crawlkit: The response body exceeds the limit of 200 bytes (--max-body-bytes). (SCRAPE_RESPONSE_TOO_LARGE)\n',
    );
    expect((await cli(['scrape', url, '--max-body-bytes', '0'])).stderr).toContain(
      'Expected --max-body-bytes to be a positive integer, got "0"',
    );
  });

  it('writes one file per format and a manifest with --out', async () => {
    const out = join(site.dir, 'scrape-out');
    const result = await cli([
      'scrape',
      `${site.server.url}/docs/getting-started.html`,
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
