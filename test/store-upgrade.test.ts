/**
 * A store written by an earlier crawlkit, opened by this one, walked as its user: every read works, nothing is lost or
 * reset. The stores are kept as their rows (`packages/crawlkit/src/__fixtures__/stores/`, each file naming the build
 * that wrote it: crawlkit 2819908 of 2026-11-29, schema 9, records at version 1; ddcada0 of 2026-11-24, schema 2,
 * records without a version) and built again here from the schema steps of their version (released steps are never
 * edited), their times moved to an hour ago and their site's address to this test's server, which serves the same
 * pages. Each holds a page scraped with `changeTracking`, a crawl completed, a crawl killed (`kill -9`) after 6 of its
 * 8 pages, and (2819908) a schedule.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MIGRATIONS } from '../packages/store/src/sqlite/migrations.ts';

interface StoreFixture {
  schemaVersion: number;
  rows: Record<string, Record<string, unknown>[]>;
}

/** The pages of the site the fixtures were written from: `/p/N` links to the next three (up to 60). */
function page(path: string): string | undefined {
  if (path === '/tracked.html') {
    return (
      '<html><head><title>Tracked</title></head><body><main><h1>Tracked</h1><p>first version</p><p>Some more text so ' +
      'the page has main content that is long enough to be kept by the extractor.</p></main></body></html>'
    );
  }
  const match = /^\/p\/(\d+)$/.exec(path);
  const n = match ? Number(match[1]) : path === '/' ? 0 : -1;
  if (n < 0) return undefined;
  const links = [1, 2, 3]
    .map((step) => n + step)
    .filter((k) => k <= 60)
    .map((k) => `<a href="/p/${k}">page ${k}</a>`)
    .join(' ');
  return (
    `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>This is page number ${n} of the ` +
    `probe site, with a paragraph of text.</p>${links}</main></body></html>`
  );
}

/** The two servers of the site (the fixtures' ports 41731 and 41732: the killed crawl ran on a slow one). */
const servers: Server[] = [];
/** This test's `host:port` in place of each of the fixtures'. */
const origins = new Map<string, string>();
let origin: string;
const dirs: string[] = [];

beforeAll(async () => {
  for (const port of ['41731', '41732']) {
    const server = createServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      if (path === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\n');
      const html = page(path);
      res.writeHead(html ? 200 : 404, { 'content-type': 'text/html' }).end(html ?? 'no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    origins.set(`127.0.0.1:${port}`, `127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  origin = origins.get('127.0.0.1:41731')!;
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const TIME_COLUMNS = /(_at|_until)$/;

/** The fixture's store in a new directory: its schema steps, its rows with times moved and the site's address. */
function buildStore(name: string): string {
  const fixture = JSON.parse(
    readFileSync(new URL(`../packages/crawlkit/src/__fixtures__/stores/${name}.json`, import.meta.url), 'utf8'),
  ) as StoreFixture;
  const dir = mkdtempSync(join(tmpdir(), `ck-upgrade-${name}-`));
  dirs.push(dir);
  const db = new DatabaseSync(join(dir, 'crawlkit.db'));
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER)',
  );
  for (const step of MIGRATIONS.filter((m) => m.version <= fixture.schemaVersion)) {
    db.exec(step.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(step.version, step.description);
  }
  const latest = Math.max(...fixture.rows.jobs!.map((job) => Number(job.updated_at)));
  const shift = Date.now() - 3_600_000 - latest;
  for (const [table, rows] of Object.entries(fixture.rows)) {
    for (const row of rows) {
      const values = Object.entries(row).map(([column, value]): SQLInputValue => {
        if (typeof value === 'string') return value.replaceAll(/127\.0\.0\.1:4173[12]/g, (old) => origins.get(old)!);
        if (typeof value === 'number' && TIME_COLUMNS.test(column) && value > 1e12) return value + shift;
        if (value && typeof value === 'object') return Buffer.from((value as { base64: string }).base64, 'base64');
        return value as SQLInputValue;
      });
      const columns = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
        ...values,
      );
    }
  }
  db.close();
  return dir;
}

function jobIds(name: string): { completed: string; killed: string } {
  const fixture = JSON.parse(
    readFileSync(new URL(`../packages/crawlkit/src/__fixtures__/stores/${name}.json`, import.meta.url), 'utf8'),
  ) as StoreFixture;
  const crawls = fixture.rows.jobs!.filter((job) => String(job.request).includes('"limit":'));
  const killed = crawls.find((job) => job.status === 'scraping')!;
  const completed = crawls.find((job) => job.status === 'completed' && String(job.request).includes('"limit":3'))!;
  return { completed: String(completed.id), killed: String(killed.id) };
}

for (const name of ['crawlkit-ddcada0', 'crawlkit-2819908']) {
  describe(`a store written by ${name}, opened by this crawlkit`, () => {
    it('reads its crawls, resumes the killed one, compares with its snapshot and keeps its schedules', async () => {
      const dir = buildStore(name);
      const { completed, killed } = jobIds(name);
      const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
      try {
        const status = await ck.getCrawlStatus(completed);
        expect(status).toMatchObject({ success: true, status: 'completed', completed: 3, total: 3 });
        expect(status.success && status.data.map((doc) => doc.markdown)).toEqual([
          expect.stringContaining('# Page 0'),
          expect.stringContaining('# Page'),
          expect.stringContaining('# Page'),
        ]);

        const tracked = await ck.scrape({
          url: `http://${origin}/tracked.html`,
          formats: ['markdown', 'changeTracking'],
          maxAge: 0,
        });
        expect(tracked).toMatchObject({ success: true, data: { changeTracking: { changeStatus: 'same' } } });
        expect(tracked.success && tracked.data.changeTracking?.previousScrapeAt).not.toBeNull();

        const before = await ck.getCrawlStatus(killed);
        expect(before).toMatchObject({ success: true, status: 'scraping', completed: 6 });
        expect(await ck.resumeJob(killed)).toEqual({ success: true, id: killed });
        const resumed = await ck.waitForJob(killed);
        expect(resumed).toMatchObject({ success: true, status: 'completed', completed: 8, total: 8 });
        const urls = resumed.success ? resumed.data.map((doc) => doc.metadata?.url) : [];
        expect(new Set(urls).size).toBe(8);

        if (name === 'crawlkit-2819908') {
          const schedules = await ck.schedules.list();
          expect(schedules).toMatchObject({
            success: true,
            data: [{ every: '6h', targets: [{ type: 'crawl', url: `http://${origin}/p/7` }] }],
          });
        }
      } finally {
        await ck.close();
      }
    }, 60_000);
  });
}
