/** The built `crawlkit explain` against the fixture site: each block's verdict and rule, --find, --json, --html. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ExplainedPage } from '@crawlkit/extractor';
import { describe, expect, it } from 'vitest';

import { useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();
const { cli } = site;

describe('crawlkit explain', { timeout: 120_000 }, () => {
  it("prints every block of the page with its verdict and rule: the story kept, the sidebar's paragraph dropped", async () => {
    const result = await cli(['explain', `${site.server.url}/articles/first-post.html`]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^main content: container \(article\); \d+ blocks/m);
    expect(result.stdout).toMatch(/^\s+\d+ {2}kept {5}container\s+p\s+A sharp iron is the difference/m);
    expect(result.stdout).toMatch(/^\s+\d+ {2}dropped {2}chrome\s+p\s+Get new posts by email\.$/m);
    expect(result.stdout).toMatch(/^\s+\d+ {2}dropped {2}caption\s+figcaption A freshly sharpened iron\.$/m);
  });

  it('with --find, names the rule that dropped the paragraph and the includeTags that keep it', async () => {
    const url = `${site.server.url}/articles/first-post.html`;
    const result = await cli(['explain', url, '--find', 'friday sharpening class']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').slice(3);
    expect(lines[0]).toMatch(/dropped {2}outside-container\s+p\s+Dana runs the Friday sharpening class\.$/);
    expect(lines.join('\n')).toContain('outside the container chosen as the main content (select.ts)');
    const kept = /kept with: --include-tags '([^']+)'/.exec(lines.join('\n'));
    expect(kept).not.toBeNull();
    // the suggestion works: a scrape with it keeps the paragraph and the story
    const scrape = await cli(['scrape', url, '--include-tags', kept![1]!]);
    expect(scrape.code).toBe(0);
    expect(scrape.stdout).toContain('Dana runs the Friday sharpening class.');
    expect(scrape.stdout).toContain('A sharp iron is the difference');
  });

  it('prints the explanation as JSON, and fails when no block holds the text asked for', async () => {
    const url = `${site.server.url}/articles/first-post.html`;
    const json = await cli(['explain', url, '--json', '--exclude-tags', 'table']);
    expect(json.code).toBe(0);
    const page = JSON.parse(json.stdout) as ExplainedPage & { url: string };
    expect(page.source).toBe('container');
    expect(page.blocks.find((b) => b.text === 'Pine')).toMatchObject({ verdict: 'dropped', rule: 'exclude-tags' });
    const missing = await cli(['explain', url, '--find', 'no such words anywhere']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no block of the page holds "no such words anywhere"');
  });

  it('explains a saved page with --html, its URL as the base', async () => {
    const file = join(site.dir, 'saved.html');
    writeFileSync(
      file,
      '<html><body><main><h1>Saved</h1><p>A saved page holds this paragraph of the story, long enough to count as prose.</p></main><footer><p>Footer text of the saved page.</p></footer></body></html>',
    );
    const result = await cli(['explain', 'https://saved.example/page', '--html', file, '--find', 'footer text']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/dropped {2}chrome\s+p\s+Footer text of the saved page\.$/m);
    // nothing was fetched
    expect(site.server.requests.some((r) => r.path === '/page')).toBe(false);
    // the file given as the URL is told to go in --html, not refused as a URL with no word about the file
    const local = await cli(['explain', 'saved.html']);
    expect(local.code).toBe(2);
    expect(local.stderr).toBe(
      'crawlkit: "saved.html" is a local file, not a URL: `crawlkit explain <the page\'s URL> --html saved.html` explains it (CLI_USAGE)\n',
    );
  });
});
