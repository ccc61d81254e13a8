/**
 * Every call answers the v2 shape, whatever it is given (issue 24 §6): ids that are not strings (a failed `crawl()`
 * has no id), call options that are not objects, a damaged store; and a store file truncated to nothing is reported.
 * The fuzz test in fuzz-api.test.ts covers random arguments; these are the cases found by hand.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type CrawlResponse, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { JOB_ID_METHODS } from './helpers/api-methods.ts';
import { ok } from './helpers-batch.ts';

let server: FixtureServer;
const root = mkdtempSync(join(tmpdir(), 'ck-v2-shapes-'));

beforeAll(async () => {
  server = await startFixtureServer();
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const NOT_IDS: unknown[] = [undefined, null, 42, {}, ['0190a8c4-0000-7000-8000-000000000000']];

describe('job ids that are not strings', () => {
  let ck: Crawlkit;
  beforeAll(() => {
    ck = new Crawlkit({ store: 'memory', engine: 'http' });
  });
  afterAll(() => ck.close());

  it('answers BAD_REQUEST from every method taking a job id', async () => {
    // What a caller gets after a crawl() that failed: no id.
    const failed = (await ck.crawl({ url: 'not a url' })) as Partial<CrawlResponse>;
    expect(failed.success).toBe(false);
    for (const id of [failed.id, ...NOT_IDS]) {
      for (const method of JOB_ID_METHODS) {
        const response = await (ck[method] as (id: unknown) => Promise<unknown>).call(ck, id);
        expect(response, `${method}(${JSON.stringify(id)})`).toMatchObject({
          success: false,
          code: 'BAD_REQUEST',
          error: 'Invalid job ID format. Job ID must be a valid UUID.',
        });
      }
    }
  });

  it('watch() rejects with a BAD_REQUEST CrawlkitError, not a TypeError', async () => {
    for (const id of NOT_IDS) {
      const iterate = async () => {
        for await (const _ of ck.watch(id as string)) void _;
      };
      await expect(iterate(), JSON.stringify(id)).rejects.toMatchObject({ name: 'CrawlkitError', code: 'BAD_REQUEST' });
    }
  });
});

describe('call options', () => {
  let ck: Crawlkit;
  beforeAll(() => {
    ck = new Crawlkit({ store: 'memory', engine: 'http' });
  });
  afterAll(() => ck.close());

  it('takes null as no options and answers BAD_REQUEST for options that are not an object or a bad signal', async () => {
    const body = { url: `${server.url}/articles/first-post.html`, formats: ['markdown' as const] };
    const scraped = await ck.scrape(body, null as never);
    expect(scraped.success, JSON.stringify(scraped).slice(0, 200)).toBe(true);
    for (const init of [42, 'signal', [], { signal: 'abort' }, { signal: {} }]) {
      expect(await ck.scrape(body, init as never), JSON.stringify(init)).toMatchObject({
        success: false,
        code: 'BAD_REQUEST',
      });
    }
    expect(await ck.scrape(body, { signal: AbortSignal.abort() })).toMatchObject({ success: false, code: 'ABORTED' });
  });

  it('answers BAD_REQUEST for a pagination or prune option of the wrong type', async () => {
    const id = '0190a8c4-0000-7000-8000-000000000000';
    expect(await ck.getCrawlStatus(id, 'skip=1' as never)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(await ck.cache.prune({ maxAgeMs: 'old' as never })).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(await ck.cache.prune(null as never)).toBe(0);
  });
});

describe('a damaged store', () => {
  it('answers STORE_CORRUPT from every method that reads it, listUnfinishedJobs and cache included', async () => {
    const dir = mkdtempSync(join(root, 'damaged-'));
    const first = new Crawlkit({ storeDir: dir, engine: 'http' });
    const started = ok<CrawlResponse>(await first.crawl({ url: `${server.url}/docs/`, limit: 3 }));
    await first.waitForJob(started.id);
    await first.close();
    // Keep the header page (the file opens), scramble the rest (every read fails).
    const file = join(dir, 'crawlkit.db');
    const bytes = readFileSync(file);
    for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    writeFileSync(file, bytes);

    const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const calls: [string, () => Promise<unknown>][] = [
        ['getCrawlStatus', () => ck.getCrawlStatus(started.id)],
        ['waitForJob', () => ck.waitForJob(started.id)],
        ['resumeJob', () => ck.resumeJob(started.id)],
        ['listUnfinishedJobs', () => ck.listUnfinishedJobs()],
        ['cache.prune', () => ck.cache.prune()],
        ['cache.pruneHistory', () => ck.cache.pruneHistory({ maxAgeMs: 0 })],
        ['cache.clear', () => ck.cache.clear()],
      ];
      for (const [name, call] of calls) {
        const response = await call().catch((error: unknown) => ({ threw: String(error) }));
        expect(response, name).toMatchObject({ success: false, code: 'STORE_CORRUPT' });
      }
    } finally {
      await ck.close();
    }
  });
});

describe('a store file truncated to 0 bytes', () => {
  it('becomes a new store with a STORE_FILE_EMPTY warning event; a new store or a reopened one warns nothing', async () => {
    const dir = mkdtempSync(join(root, 'truncated-'));
    const warnings: { code: string; message: string }[] = [];
    const first = new Crawlkit({ storeDir: dir, engine: 'http' });
    first.on('warning', (w) => warnings.push(w));
    const started = ok<CrawlResponse>(await first.crawl({ url: `${server.url}/docs/`, limit: 2 }));
    await first.waitForJob(started.id);
    await first.close();
    const reopened = new Crawlkit({ storeDir: dir, engine: 'http' });
    reopened.on('warning', (w) => warnings.push(w));
    expect((await reopened.getCrawlStatus(started.id)).success).toBe(true);
    await reopened.close();
    expect(warnings).toEqual([]);

    truncateSync(join(dir, 'crawlkit.db'), 0);
    const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    ck.on('warning', (w) => warnings.push(w));
    try {
      expect(await ck.listUnfinishedJobs()).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.code).toBe('STORE_FILE_EMPTY');
      expect(warnings[0]!.message).toContain(join(dir, 'crawlkit.db'));
      expect(((await ck.getCrawlStatus(started.id)) as ErrorResponse).code).toBe('JOB_NOT_FOUND');
    } finally {
      await ck.close();
    }
  });
});
