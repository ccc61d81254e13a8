/**
 * The search index follows the store (SQLite): a page re-scraped is re-indexed, pruned pages leave it, zero data
 * retention pages never enter it, and after `kill -9` in the middle of a batch that writes pages the index holds
 * exactly the stored pages and results, before and after the batch is resumed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

import { Crawlkit, type SearchResponse } from 'crawlkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt } from './cli-helpers.ts';
import { ok } from './helpers/crawl-site-run.ts';

const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));

/** Words of `/page/<name>` change with `versions`: the test rewrites them between scrapes. */
const versions = new Map<string, string>();
/** Called on every `/idx/<n>` request (kill trigger). */
let onIndexPage: (() => void) | undefined;

let site: FixtureServer;
const dirs: string[] = [];

function html(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p></main></body></html>`;
}

beforeAll(async () => {
  ensureBuilt();
  site = await startFixtureServer({
    routes: {
      '/page/*': (_req, res, ctx) => {
        const name = ctx.url.pathname.slice('/page/'.length);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html(`Page ${name}`, versions.get(name) ?? 'Nothing written here yet, as the sentence says.'));
      },
      '/idx/*': (_req, res, ctx) => {
        onIndexPage?.();
        const n = ctx.url.pathname.slice('/idx/'.length);
        // Slow enough that a few pages are in flight when the process is killed.
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(html(`Index page ${n}`, `Serial marker zebra${n} sits in this page among other words.`));
        }, 20);
      },
    },
  });
});

afterAll(async () => {
  await site?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function storeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ck-index-'));
  dirs.push(dir);
  return dir;
}

const urls = (answer: SearchResponse) => Object.values(answer.data).flatMap((r) => r.map((x) => x.url));

describe('the index follows the store', () => {
  let ck: Crawlkit;
  afterEach(async () => {
    await ck?.close();
  });

  it('re-indexes a page re-scraped, drops pruned pages, and never indexes zero-data-retention pages', async () => {
    ck = new Crawlkit({ storeDir: storeDir(), engine: 'http' });
    const url = `${site.url}/page/a`;
    versions.set('a', 'The walrus guards the harbour at night, as everyone knows.');
    ok(await ck.scrape({ url }));
    expect(urls(ok(await ck.search({ query: 'walrus' })))).toEqual([url]);

    versions.set('a', 'The pelican now guards the harbour, the walrus retired.');
    ok(await ck.scrape({ url }));
    // A cache hit: the index still holds the text of the version stored.
    expect(urls(ok(await ck.search({ query: 'pelican' })))).toEqual([]);
    ok(await ck.scrape({ url, maxAge: 0 }));
    expect(urls(ok(await ck.search({ query: 'pelican' })))).toEqual([url]);
    expect(urls(ok(await ck.search({ query: '"walrus guards"' })))).toEqual([]);

    versions.set('z', 'A secret okapi lives on this page that nobody keeps.');
    ok(await ck.scrape({ url: `${site.url}/page/z`, zeroDataRetention: true }));
    const batch = ok(await ck.batchScrape({ urls: [`${site.url}/page/z`], zeroDataRetention: true }));
    ok(await ck.waitForJob(batch.id));
    expect(urls(ok(await ck.search({ query: 'okapi', sources: ['local'] })))).toEqual([]);

    expect(await ck.cache.prune({ maxAgeMs: 0 })).toBe(1);
    expect(urls(ok(await ck.search({ query: 'pelican' })))).toEqual([]);
  });

  it('indexes the results of a crawl, which stay searchable after their pages are pruned', async () => {
    ck = new Crawlkit({ storeDir: storeDir(), engine: 'http' });
    versions.set('r', 'Results of jobs carry the word quokka for the index.');
    const batch = ok(await ck.batchScrape({ urls: [`${site.url}/page/r`] }));
    ok(await ck.waitForJob(batch.id));
    await ck.cache.clear();
    const answer = ok(await ck.search({ query: 'quokka', sources: ['local'] }));
    expect(answer.data.local).toMatchObject([{ url: `${site.url}/page/r`, jobId: batch.id }]);
  });
});

/** What the store holds and what the index holds, read from the SQLite file itself. */
function consistency(dir: string) {
  const db = new DatabaseSync(join(dir, 'crawlkit.db'));
  try {
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      pages: n('SELECT count(*) AS n FROM pages'),
      results: n('SELECT count(*) AS n FROM results'),
      entries: n('SELECT count(*) AS n FROM search_entries'),
      docs: n('SELECT count(*) AS n FROM search_docs'),
      /** Texts kept (FTS5 reads them from there). */
      texts: n('SELECT count(*) AS n FROM search_content'),
      /** Texts in FTS5's index (a size row each) and texts waiting for their batch. */
      indexed: n('SELECT (SELECT count(*) FROM search_text_docsize) + (SELECT count(*) FROM search_unindexed) AS n'),
      /** Texts whose count of entries is not the number of entries that hold them. */
      miscounted: n(
        'SELECT count(*) AS n FROM search_docs d WHERE refs <> (SELECT count(*) FROM search_entries e WHERE e.doc_id = d.id)',
      ),
      /** Texts no entry holds. */
      unheld: n(
        'SELECT count(*) AS n FROM search_docs d WHERE NOT EXISTS (SELECT 1 FROM search_entries e WHERE e.doc_id = d.id)',
      ),
      pagesWithout: n(
        'SELECT count(*) AS n FROM pages p WHERE NOT EXISTS (SELECT 1 FROM search_entries e WHERE e.page_key = p.key)',
      ),
      resultsWithout: n(
        'SELECT count(*) AS n FROM results r WHERE NOT EXISTS ' +
          '(SELECT 1 FROM search_entries e WHERE e.job_id = r.job_id AND e.seq = r.seq)',
      ),
      orphans: n(
        'SELECT count(*) AS n FROM search_entries e WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.key = e.page_key) ' +
          'AND NOT EXISTS (SELECT 1 FROM results r WHERE r.job_id = e.job_id AND r.seq = e.seq)',
      ),
    };
  } finally {
    db.close();
  }
}

function run(args: string[]) {
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'built-hooks.ts'), join(helpers, 'search-index-child.ts'), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exit, output: () => ({ stdout, stderr }) };
}

describe('kill -9 while pages are written and indexed', () => {
  it('leaves the index neither ahead of nor behind the store, and resuming keeps it so', async () => {
    const dir = storeDir();
    const PAGES = 60;
    const start = run(['start', dir, site.url, String(PAGES)]);
    let seen = 0;
    onIndexPage = () => {
      if (++seen === 25) start.child.kill('SIGKILL');
    };
    const killed = await start.exit;
    onIndexPage = undefined;
    expect(killed.signal, JSON.stringify(start.output())).toBe('SIGKILL');

    const after = consistency(dir);
    expect(after.pages).toBeGreaterThan(0);
    expect(after.pages).toBeLessThan(PAGES);
    expect(after).toMatchObject({ pagesWithout: 0, resultsWithout: 0, orphans: 0 });
    expect(after.entries).toBe(after.pages + after.results);
    // A page's text is kept once for its cache entry and its result.
    expect(after).toMatchObject({ texts: after.docs, indexed: after.docs, miscounted: 0, unheld: 0 });
    expect(after.docs).toBeLessThanOrEqual(after.entries);

    const resume = run(['resume', dir]);
    const resumed = await resume.exit;
    expect(resumed.code, JSON.stringify(resume.output())).toBe(0);
    const done = consistency(dir);
    expect(done.results).toBe(PAGES);
    // A page's cache write commits after its result: one killed in between loses its cache entry only (its result is
    // done, so the resumed batch does not fetch it again).
    expect(done.pages).toBeGreaterThanOrEqual(after.pages);
    expect(done.pages).toBeLessThanOrEqual(PAGES);
    expect(done).toMatchObject({
      pagesWithout: 0,
      resultsWithout: 0,
      orphans: 0,
      entries: done.pages + PAGES,
      docs: PAGES,
      texts: PAGES,
      indexed: PAGES,
      miscounted: 0,
      unheld: 0,
    });

    const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const answer = ok(await ck.search({ query: 'zebra37', sources: ['local'] }));
      expect(answer.data.local?.map((r) => r.url)).toEqual([`${site.url}/idx/37`]);
    } finally {
      await ck.close();
    }
  });
});
