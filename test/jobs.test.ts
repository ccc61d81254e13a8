/** Crawl jobs end to end (the batch and webhook cases are in batch.test.ts and webhooks.test.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';

let server: FixtureServer;
let ck: Crawlkit;
let dir: string;

beforeAll(async () => {
  server = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-jobs-'));
  ck = new Crawlkit({ storeDir: dir, engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function ok<T extends { success: boolean }>(value: T): Exclude<T, ErrorResponse> {
  if (!value.success) throw new Error(`unexpected error: ${(value as unknown as ErrorResponse).error}`);
  return value as Exclude<T, ErrorResponse>;
}

describe('crawl', () => {
  it('follows links in scope, respects limit, and lists itself while active', async () => {
    const started = ok(await ck.crawl({ url: `${server.url}/`, limit: 5, crawlEntireDomain: true }));
    expect(started.url).toBe(`crawlkit://v2/crawl/${started.id}`);
    const active = ok(await ck.getActiveCrawls());
    expect(active.crawls.map((c) => c.id)).toContain(started.id);
    const done = ok(await ck.waitForJob(started.id));
    expect(done.status).toBe('completed');
    expect(done.total).toBe(5);
    expect(done.data.length).toBeGreaterThanOrEqual(4);
    const sources = done.data.map((d) => d.metadata.sourceURL);
    expect(sources).toContain(`${server.url}/`);
    expect(new Set(sources).size).toBe(sources.length);
    const after = ok(await ck.getActiveCrawls());
    expect(after.crawls.map((c) => c.id)).not.toContain(started.id);
  });

  it('keeps to the seed directory without crawlEntireDomain', async () => {
    const started = ok(await ck.crawl({ url: `${server.url}/articles/first-post.html`, limit: 20 }));
    const done = ok(await ck.waitForJob(started.id));
    for (const doc of done.data) expect(new URL(doc.metadata.sourceURL).pathname).toMatch(/^\/articles\//);
    expect(done.data.length).toBeGreaterThanOrEqual(2);
  });

  it('rejects invalid path regexes', async () => {
    const response = await ck.crawl({ url: `${server.url}/`, includePaths: ['(unclosed'] });
    expect(response).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });
});
