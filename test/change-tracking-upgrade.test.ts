/**
 * An upgrade of crawlkit does not report an unchanged page `changed` (b58): a snapshot keeps hashes of the page as
 * fetched and of the options that shape its markdown, and a page whose both hashes are the last snapshot's is `same`
 * whatever the markdowns say. The older extractor is played by the store itself: the snapshot kept in the SQLite file
 * (and a monitor's crawl baseline) is rewritten as an older extractor would have made it, a heading permalink kept,
 * between two scrapes of a real server's page through the real `Crawlkit`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit, type MonitorCheckDetailView } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { data } from './helpers/scrape.ts';
import { closedCheck, ok } from './monitors-helpers.ts';

/** The pages' paragraph by path; edited by the tests. */
const texts = new Map<string, string>();
let server: Server;
let origin: string;
const dirs: string[] = [];
const engines: Crawlkit[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    const text = texts.get(path);
    if (text === undefined) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Guide</title></head><body><main><h1>Guide</h1>` +
        `<h2 id="s">Section <a href="#s">#</a></h2><p>${text}</p><p>Some more words so the main content is kept.</p>` +
        `</main></body></html>`,
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  await new Promise<void>((done) => server.close(() => done()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An engine on a fresh on-disk store, with the store's file opened beside it. */
function engine(): { ck: Crawlkit; db: DatabaseSync } {
  const dir = mkdtempSync(join(tmpdir(), 'ck-ct-upgrade-'));
  dirs.push(dir);
  const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
  engines.push(ck);
  return {
    ck,
    get db() {
      return new DatabaseSync(join(dir, 'crawlkit.db'));
    },
  };
}

/** The markdown an older extractor made of the page: its headings with a permalink. */
const olderExtractor = (markdown: string, url: string) =>
  markdown.replace(/^(#+ .+)$/gm, (heading) => `${heading} [#](${url}#s)`);

/**
 * Rewrites the latest change-tracking snapshot of each page whose history tag matches `tag` as an older extractor
 * would have made it; `keepSource: false` also drops its source hashes (a snapshot of a crawlkit before the rule).
 */
function rewriteSnapshots(db: DatabaseSync, tag: string, keepSource = true): number {
  const rows = db.prepare('SELECT id, url, value FROM history WHERE tag LIKE ?').all(tag) as {
    id: number;
    url: string;
    value: string;
  }[];
  for (const row of rows) {
    const snapshot = JSON.parse(row.value) as { markdown: string; source?: unknown };
    expect(snapshot.source).toEqual({ page: expect.any(String), options: expect.any(String) });
    snapshot.markdown = olderExtractor(snapshot.markdown, `http:${row.url}`);
    if (!keepSource) delete snapshot.source;
    db.prepare('UPDATE history SET value = ? WHERE id = ?').run(JSON.stringify(snapshot), row.id);
  }
  db.close();
  return rows.length;
}

function latestMarkdown(db: DatabaseSync, url: string): string {
  const row = db
    .prepare("SELECT value FROM history WHERE url = ? AND tag = '' ORDER BY scraped_at DESC, id DESC LIMIT 1")
    .get(url.replace(/^http:/, '')) as { value: string };
  db.close();
  return (JSON.parse(row.value) as { markdown: string }).markdown;
}

let counter = 0;
function page(text: string): { path: string; url: string } {
  const path = `/guide-${++counter}`;
  texts.set(path, text);
  return { path, url: `${origin}${path}` };
}

const tracked = async (ck: Crawlkit, url: string, options: Record<string, unknown> = {}) =>
  data(
    await ck.scrape({
      url,
      formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }],
      ...options,
    }),
  );

describe('change tracking across an extractor upgrade', () => {
  it('an unchanged page is same after the extractor changed; the next real change diffs against the new one', async () => {
    const store = engine();
    const { path, url } = page('Price: 40 EUR');
    expect((await tracked(store.ck, url)).changeTracking?.changeStatus).toBe('new');
    expect(rewriteSnapshots(store.db, '')).toBe(1);
    expect(latestMarkdown(store.db, url)).toContain(`## Section [#](${url}#s)`);

    const again = await tracked(store.ck, url);
    expect(again.changeTracking).toMatchObject({ changeStatus: 'same', previousScrapeAt: expect.any(String) });
    expect(again.changeTracking?.diff).toBeUndefined();
    // Today's markdown replaced the older extractor's.
    expect(latestMarkdown(store.db, url)).toBe(again.markdown);

    texts.set(path, 'Price: 45 EUR');
    const changed = await tracked(store.ck, url);
    expect(changed.changeTracking?.changeStatus).toBe('changed');
    const diff = changed.changeTracking!.diff!.text;
    expect(diff).toContain('\n-Price: 40 EUR\n');
    expect(diff).toContain('\n+Price: 45 EUR\n');
    expect(diff).not.toContain('[#]');
  });

  it('options that shape the markdown changed: the markdowns are compared, as before the rule', async () => {
    const store = engine();
    const { url } = page('Stock: plenty');
    await tracked(store.ck, url);
    rewriteSnapshots(store.db, '');
    // No `aside` on the page: the same markdown today, but other options, so the extractor's change shows.
    const other = await tracked(store.ck, url, { excludeTags: ['aside'] });
    expect(other.changeTracking?.changeStatus).toBe('changed');
    expect(other.changeTracking?.diff?.text).toContain(`\n-## Section [#](${url}#s)\n+## Section\n`);
    // Same options again, same page: same.
    expect((await tracked(store.ck, url, { excludeTags: ['aside'] })).changeTracking?.changeStatus).toBe('same');
  });

  it('a snapshot of a crawlkit before the rule (no hashes) is compared as before', async () => {
    const store = engine();
    const { url } = page('Colour: blue');
    await tracked(store.ck, url);
    rewriteSnapshots(store.db, '', false);
    const again = await tracked(store.ck, url);
    expect(again.changeTracking?.changeStatus).toBe('changed');
    expect(again.changeTracking?.diff?.text).toContain(`\n-## Section [#](${url}#s)\n+## Section\n`);
    // Kept with its hashes now: the next scrape of the same page is same.
    expect((await tracked(store.ck, url)).changeTracking?.changeStatus).toBe('same');
  });

  it("a monitor's check: an unchanged page is same after the extractor changed, a changed one changed", async () => {
    const store = engine();
    const { path, url } = page('Opening hours: 9 to 5');
    const id = ok(
      await store.ck.monitors.create({
        name: 'upgrade',
        schedule: { text: 'every 30 minutes' },
        targets: [{ id: 'pages', type: 'scrape', urls: [url] }],
      }),
    ).data.id;
    const statusOf = async (): Promise<MonitorCheckDetailView['pages'][number]> => {
      const check = await closedCheck(store.ck, id, ok(await store.ck.monitors.run(id)).data.id);
      expect(check.pages).toHaveLength(1);
      return check.pages[0]!;
    };
    expect((await statusOf()).status).toBe('new');
    // The older extractor's markdown in the target's snapshot, and its hash in the crawl's baseline.
    expect(rewriteSnapshots(store.db, 'monitor:%')).toBe(1);
    const db = store.db;
    for (const row of db.prepare("SELECT id, value FROM history WHERE tag = 'crawlkit:crawl-lineage'").all() as {
      id: number;
      value: string;
    }[]) {
      const run = JSON.parse(row.value) as { pages: [string, string, string][] };
      for (const entry of run.pages) entry[2] = 'hash-of-the-older-extractor';
      db.prepare('UPDATE history SET value = ? WHERE id = ?').run(JSON.stringify(run), row.id);
    }
    db.close();

    const same = await statusOf();
    expect(same).toMatchObject({ status: 'same', diff: null });

    texts.set(path, 'Opening hours: 10 to 6');
    const changed = await statusOf();
    expect(changed.status).toBe('changed');
    expect(changed.diff?.text).toContain('\n-Opening hours: 9 to 5\n');
    expect(changed.diff?.text).toContain('\n+Opening hours: 10 to 6\n');
    expect(changed.diff?.text).not.toContain('[#]');
  });
});
