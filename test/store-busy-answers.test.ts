/**
 * A scrape whose page was fetched and extracted answers it though the store is held by another writer at its end
 * (a58's Left: through `serve`, whose scrapes are kept for `GET /v2/scrape/:id`, the page was lost to a 500
 * `STORE_BUSY`). Neither the copy kept for that route nor the settlement of its credits is worth the page: each is told
 * as a warning, the document's own `warning` says the scrape was not kept, and reserved credits stay counted. The lock
 * is a real one: another SQLite connection to the store's file in `BEGIN IMMEDIATE`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { createSqliteStore } from '@crawlkit/store';
import { Crawlkit, type ScrapeResponse, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { until } from './helpers-batch.ts';

const TEXT = 'The page the scrape must answer whatever the store.';
let site: FixtureServer;
let dir: string;
const held = new Map<string, () => void>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ck-busy-answers-'));
  site = await startFixtureServer({
    routes: {
      // Each answers once the test has taken the lock: the scrape's credits are reserved by then.
      '/held': (_req, res) => {
        held.set('/held', () => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<html><body><main><h1>Held</h1><p>${TEXT}</p></main></body></html>`);
        });
      },
      // A retry of the engine's, after the first is cut, is cut at once.
      '/held-gone': (req) => {
        if (held.has('/held-gone')) req.socket.destroy();
        else held.set('/held-gone', () => req.socket.destroy());
      },
    },
  });
});

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Scrapes `path` under a credit limit, kept as `serve` keeps its scrapes; once the site has the request, another
 * connection takes the store's write lock and the site answers. Resolves the answer, the warnings told and the
 * credits committed before and after.
 */
async function scrapeUnderLock(path: string) {
  const store = await createSqliteStore({ dir: mkdtempSync(join(dir, 'store-')), busyTimeoutMs: 100 });
  const ck = new Crawlkit({ store, engine: 'http' });
  const warnings: { code: string; message: string }[] = [];
  ck.on('warning', (warning) => warnings.push(warning));
  try {
    const scrape = ck.scrape(
      { url: `${site.url}${path}`, formats: ['markdown'] },
      { keepResult: true, creditLimit: 50 },
    );
    await until(() => held.has(path), 30_000);
    const reserved = (await ck.credits.committed()) as number;
    const holder = new DatabaseSync(store.path);
    holder.exec('BEGIN IMMEDIATE');
    let answer: ScrapeResponse | ErrorResponse;
    try {
      held.get(path)!();
      answer = await scrape;
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    return { answer, warnings, reserved, after: (await ck.credits.committed()) as number, ck };
  } finally {
    held.delete(path);
  }
}

describe('a scrape ending while another writer holds the store', () => {
  it('answers its page, the scrape not kept for GET /v2/scrape/:id, which the document and RESULT_NOT_KEPT say', async () => {
    const { answer, warnings, ck } = await scrapeUnderLock('/held');
    try {
      expect(answer.success).toBe(true);
      if (!answer.success) return;
      expect(answer.data.markdown).toContain(TEXT);
      const id = answer.data.metadata.scrapeId!;
      const note = `This scrape was not kept for GET /v2/scrape/${id}, which will not find it: The store is locked`;
      expect(answer.data.warning).toContain(note);
      expect(warnings.find((w) => w.code === 'RESULT_NOT_KEPT')?.message).toContain(note);
      expect(await ck.getScrape(id)).toMatchObject({ success: false, code: 'JOB_NOT_FOUND' });
    } finally {
      await ck.close();
    }
  }, 60_000);

  it("answers a failed page's own error; the reservation it could not settle stays counted (CREDITS_NOT_SETTLED)", async () => {
    const { answer, warnings, reserved, after, ck } = await scrapeUnderLock('/held-gone');
    await ck.close();
    expect(answer.success).toBe(false);
    expect(answer).not.toMatchObject({ code: 'STORE_BUSY' });
    expect(reserved).toBeGreaterThan(0);
    expect(after).toBe(reserved);
    expect(warnings.find((w) => w.code === 'CREDITS_NOT_SETTLED')?.message).toMatch(
      new RegExp(`^The ${reserved} credits reserved for a call stay counted: settling them to 0 failed \\(The store`),
    );
  }, 60_000);
});
