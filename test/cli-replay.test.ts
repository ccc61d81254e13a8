/** `--record` and `crawlkit replay` (issue 41) through the built command: a crawl recorded, replayed with its site down. */
import { fileURLToPath } from 'node:url';

import type { Document } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startFixtureServer } from '../fixtures/server.ts';
import { useCliSite } from './helpers/cli-site.ts';

const DOCS = fileURLToPath(new URL('../fixtures/docs-site', import.meta.url));
const site = useCliSite();

function documents(ndjson: string): Record<string, string | undefined> {
  const docs = ndjson
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Document);
  return Object.fromEntries(docs.map((doc) => [doc.metadata.sourceURL, doc.markdown]));
}

describe('crawlkit crawl --record, then crawlkit replay', { timeout: 120_000 }, () => {
  it('prints where the WARC file is, and replays the same documents with the site down', async () => {
    const docs = await startFixtureServer({ root: DOCS });
    let recorded;
    try {
      recorded = await site.cli(['crawl', `${docs.url}/`, '--limit', '6', '--engine', 'http', '--record', '--ndjson']);
    } finally {
      await docs.close();
    }
    expect(recorded.code, recorded.stderr).toBe(0);
    const warc = /recorded to (\S+\.warc\.gz)/.exec(recorded.stderr)?.[1];
    expect(warc, recorded.stderr).toBeDefined();
    const live = documents(recorded.stdout);
    expect(Object.keys(live)).toHaveLength(6);

    const replayed = await site.cli(['replay', warc!, '--ndjson']);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stderr).toContain('replaying crawl of');
    expect(documents(replayed.stdout)).toEqual(live);

    // The scrape flags replace the recorded ones.
    const links = await site.cli(['replay', warc!, '--format', 'links', '--no-only-main-content', '--ndjson']);
    expect(links.code, links.stderr).toBe(0);
    const linked = links.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Document);
    expect(linked).toHaveLength(6);
    for (const doc of linked) {
      expect(doc.links).toBeInstanceOf(Array);
      expect(doc.markdown).toBeUndefined();
    }
    expect(linked.flatMap((doc) => doc.links ?? []).length).toBeGreaterThan(0);
  });

  it('records a scrape and replays it as a batch of its page', async () => {
    const docs = await startFixtureServer({ root: DOCS });
    const page = `${docs.url}/guide/faq.html`;
    let recorded;
    try {
      recorded = await site.cli(['scrape', page, '--engine', 'http', '--record']);
    } finally {
      await docs.close();
    }
    expect(recorded.code, recorded.stderr).toBe(0);
    const warc = /recorded to (\S+\.warc\.gz)/.exec(recorded.stderr)?.[1];
    const replayed = await site.cli(['replay', warc!]);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stderr).toContain('replaying 1 page(s)');
    // Printed as a job's pages are: each after a line naming its URL.
    expect(replayed.stdout.trim()).toBe(`<!-- ${page} -->\n\n${recorded.stdout.trim()}`);
  });

  it('replays the pages of every file given, not only the first one', async () => {
    const docs = await startFixtureServer({ root: DOCS });
    const pages = [`${docs.url}/guide/faq.html`, `${docs.url}/index.html`];
    const warcs: string[] = [];
    try {
      for (const page of pages) {
        const recorded = await site.cli(['scrape', page, '--engine', 'http', '--record']);
        expect(recorded.code, recorded.stderr).toBe(0);
        warcs.push(/recorded to (\S+\.warc\.gz)/.exec(recorded.stderr)![1]!);
      }
    } finally {
      await docs.close();
    }
    const replayed = await site.cli(['replay', ...warcs, '--ndjson']);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stderr).toContain('replaying 2 page(s)');
    expect(Object.keys(documents(replayed.stdout)).toSorted()).toEqual(pages.toSorted());
  });

  it('refuses a file that is not a recording, with exit code 2', async () => {
    const result = await site.cli(['replay', fileURLToPath(new URL('../package.json', import.meta.url))]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /Cannot read the recording .*package\.json: it does not start with a WARC record \(REPLAY_FILE_UNREADABLE\)\n$/,
    );
    // The table's code for it, as `ck.scrape()` with `replay.files` answers it (was CLI_USAGE under --json).
    const json = await site.cli(['replay', fileURLToPath(new URL('../package.json', import.meta.url)), '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, code: 'REPLAY_FILE_UNREADABLE' });
  });
});
