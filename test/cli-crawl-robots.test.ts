/**
 * `crawlkit crawl` on a site whose robots.txt disallows pages it links to: the pages robots.txt kept the crawl from
 * are named in the summary, `--json`'s answer and the `--out` manifest (v2's status only warns that there were some).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer, type Routes } from '../fixtures/server.ts';
import { ensureBuilt, runCli } from './cli-helpers.ts';

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>A page of the robots.txt test site, with enough words to be its main content.</p>${body}</main></body></html>`;

const routes: Routes = {
  '/robots.txt': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('User-agent: *\nDisallow: /private/\n');
  },
  '/': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html('Home', '<a href="/about">About</a> <a href="/private/a">A</a> <a href="/private/b">B</a>'));
  },
  '/about': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html('About', '<a href="/">Home</a>'));
  },
  '/private/*': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html('Private', ''));
  },
};

let server: FixtureServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  server = await startFixtureServer({ routes });
  dir = mkdtempSync(join(tmpdir(), 'ck-cli-robots-'));
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('crawlkit crawl and robots.txt', { timeout: 120_000 }, () => {
  it('names the disallowed pages after the summary, in --json and in the --out manifest', async () => {
    const blocked = [`${server.url}/private/a`, `${server.url}/private/b`];
    const out = join(dir, 'out');
    const args = ['crawl', `${server.url}/`, '--sitemap', 'skip', '--store', 'memory'];
    const json = await runCli([...args, '--json', '--out', out], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout) as { completed: number; warning?: string; robotsBlocked?: string[] };
    expect(answer.completed).toBe(2);
    expect(answer.warning).toMatch(/robots\.txt/);
    expect(answer.robotsBlocked?.toSorted()).toEqual(blocked);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as typeof answer;
    expect(manifest.robotsBlocked?.toSorted()).toEqual(blocked);
    expect(manifest.warning).toBe(answer.warning);
    expect(json.stderr).toMatch(
      /note: robots\.txt disallowed 2 pages \(http:\/\/\S+\/private\/[ab], http:\/\/\S+\/private\/[ab]\): not crawled; --ignore-robots-txt crawls them/,
    );
    expect(server.requests.filter((r) => r.path.startsWith('/private/'))).toEqual([]);

    const ignoring = await runCli([...args, '--ignore-robots-txt', '--json'], { cwd: dir });
    expect(ignoring.code, ignoring.stderr).toBe(0);
    expect(JSON.parse(ignoring.stdout)).not.toHaveProperty('robotsBlocked');
    expect(ignoring.stderr).not.toContain('robots.txt disallowed');
  });
});
