/**
 * The change history over a long life: a nightly crawl with `changeTracking` of a site whose pages come and go, on
 * the on-disk store. The history keeps one version per page and tag (the one the next scrape compares with), and
 * `cache.pruneHistory` drops the pages not tracked for an age, keeping crawlkit's own records (a crawl lineage's
 * last run, which the change feed compares with).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit, type Document } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startChangingSite, type ChangingSite } from '../fixtures/changing-site.ts';

let site: ChangingSite;
let ck: Crawlkit;
const dir = mkdtempSync(join(tmpdir(), 'ck-history-'));
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

beforeAll(async () => {
  site = await startChangingSite({
    '/a.html': { title: 'A', text: 'Page a.', modifiedAt: Date.UTC(2026, 0, 1) },
    '/b.html': { title: 'B', text: 'Page b.', modifiedAt: Date.UTC(2026, 0, 1) },
  });
  ck = new Crawlkit({ storeDir: dir, engine: 'http', logger: quiet });
});

afterAll(async () => {
  await ck.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

async function nightly(): Promise<Map<string, Document>> {
  const started = await ck.crawl({
    url: `${site.url}/`,
    tag: 'nightly',
    scrapeOptions: { formats: ['markdown', { type: 'changeTracking', tag: 'nightly' }] },
  });
  if (!started.success) throw new Error(`crawl refused: ${started.error}`);
  const done = await ck.waitForJob(started.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  return new Map(done.data.map((d) => [new URL(d.metadata.sourceURL).pathname, d]));
}

/** The history's rows: the format's snapshots by tag, and crawlkit's records. */
function historyRows(): { snapshots: number; records: number } {
  const db = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
  try {
    const count = (where: string) =>
      (db.prepare(`SELECT count(*) AS n FROM history WHERE ${where}`).get() as { n: number }).n;
    return { snapshots: count("tag = 'nightly'"), records: count("tag LIKE 'crawlkit:%'") };
  } finally {
    db.close();
  }
}

describe('the change history of a nightly crawl', () => {
  it('keeps one version per page, and prunes the pages not tracked since an age, not the lineage', async () => {
    await nightly();
    site.set('/a.html', { title: 'A', text: 'Page a, edited.' });
    site.pages.delete('/b.html');
    site.set('/c.html', { title: 'C', text: 'Page c.' });
    const second = await nightly();
    expect(second.get('/a.html')?.changeTracking?.changeStatus).toBe('changed');
    expect(second.get('/c.html')?.changeTracking?.changeStatus).toBe('new');
    // Home, a, b (gone, its last version still kept) and c: one version each, whatever the number of runs.
    expect(historyRows().snapshots).toBe(4);

    expect(await ck.cache.pruneHistory({ maxAgeMs: 3_600_000 })).toBe(0);
    const records = historyRows().records;
    expect(await ck.cache.pruneHistory({ maxAgeMs: 0 })).toBe(4);
    expect(historyRows()).toEqual({ snapshots: 0, records });

    // The format compares with nothing now; the crawl's feed still with its last run.
    const third = await nightly();
    expect(third.get('/a.html')?.changeTracking?.changeStatus).toBe('new');
    expect(third.get('/a.html')?.metadata.crawlChange).toBe('same');
  });

  it('refuses a pruneHistory without an age, in the v2 error shape', async () => {
    const refused = await ck.cache.pruneHistory({} as { maxAgeMs: number });
    expect(refused).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((refused as { error: string }).error).toContain('`maxAgeMs` is required');
    expect(await ck.cache.pruneHistory({ maxAgeMs: -1 })).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });
});
