/**
 * "Where did my paragraph go?" from a scrape (issue 42): the `crawlkit:scrape:explain` diagnostics channel and
 * `DEBUG=crawlkit:explain` give, for each HTML page a scrape extracts, what `crawlkit explain` prints: every block with
 * its verdict and rule, and the includeTags that would keep a dropped paragraph. Nothing is explained while nobody
 * listens.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { CLI, ensureBuilt, startScript } from './cli-helpers.ts';

interface Explanation {
  url: string;
  page: {
    source: string;
    blocks: { text: string; verdict: string; rule: string; suggestion?: { includeTags?: string[] } }[];
  };
}

let server: FixtureServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  server = await startFixtureServer({});
  dir = mkdtempSync(join(tmpdir(), 'ck-explain-'));
}, 180_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('explaining the pages a scrape extracts', { timeout: 120_000 }, () => {
  it('publishes each page on crawlkit:scrape:explain while subscribed, and nothing after', async () => {
    const url = `${server.url}/articles/first-post.html`;
    const seen: Explanation[] = [];
    const onExplanation = (message: unknown) => seen.push(message as Explanation);
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      subscribe('crawlkit:scrape:explain', onExplanation);
      const page = await ck.scrape({ url, formats: ['markdown'] });
      unsubscribe('crawlkit:scrape:explain', onExplanation);
      if (!page.success) throw new Error(page.error);
      expect(seen).toHaveLength(1);
      const { page: explained } = seen[0]!;
      expect(seen[0]!.url).toBe(url);
      expect(explained.source).toBe('container');
      // The paragraph the scrape left out is there, dropped, with its rule and the includeTags that keep it.
      const cookies = explained.blocks.find((b) => b.text.startsWith('We use cookies'));
      expect(cookies).toMatchObject({ verdict: 'dropped', rule: 'chrome' });
      expect(cookies!.suggestion?.includeTags).toContain('#cookie-consent');
      expect(page.data.markdown).not.toContain('We use cookies');
      const kept = explained.blocks.find((b) => b.text.startsWith('Sharpen little and often'));
      expect(kept).toMatchObject({ verdict: 'kept', rule: 'container' });
      expect(page.data.markdown).toContain('Sharpen little and often');

      // Unsubscribed: the next scrape of another page is not explained.
      const again = await ck.scrape({ url: `${server.url}/listing.html`, formats: ['markdown'] });
      expect(again.success).toBe(true);
      expect(seen).toHaveLength(1);
    } finally {
      unsubscribe('crawlkit:scrape:explain', onExplanation);
      await ck.close();
    }
  });

  it('prints what crawlkit explain prints under DEBUG=crawlkit:explain', async () => {
    const url = `${server.url}/articles/first-post.html`;
    const args = ['scrape', url, '--store', join(dir, 'store')];
    const result = await startScript(CLI, args, { cwd: dir, env: { ...process.env, DEBUG: 'crawlkit:explain' } })
      .result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('We use cookies');
    expect(result.stderr).toContain(`crawlkit:explain ${url}\nmain content: container (article);`);
    expect(result.stderr).toMatch(/^ +\d+ +dropped +chrome +p +We use cookies/m);
    expect(result.stderr).toContain("kept with: --include-tags 'article,#cookie-consent'");

    // Asked for logs, not for explanations: a page is not explained.
    const logs = await startScript(CLI, args, { cwd: dir, env: { ...process.env, DEBUG: 'crawlkit:*' } }).result;
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stderr).not.toContain('main content:');
  });
});
