/**
 * A job's state tells the truth (issue 24 §1): stopping an engine never fails a job it was running, and an engine
 * that resumes a job another one is running never ends it. Two engines on one store directory are two lease owners,
 * as two processes are.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type CrawlResponse, type JobStatusResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, sleep, startReceiver } from './helpers-batch.ts';

const ARTICLES = 6;
/** The home page, the about page and the articles. */
const PAGES = ARTICLES + 2;
let server: FixtureServer;
const root = mkdtempSync(join(tmpdir(), 'ck-job-state-'));

/** robots.txt answers at once, or waits while `robotsHeld` is set (until released). */
let robotsHeld: { released: Promise<void>; release: () => void } | undefined;
let robotsHit: (() => void) | undefined;
/** While set, article pages wait for it. */
let pagesHeld: { released: Promise<void>; release: () => void } | undefined;

function hold(): { released: Promise<void>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { released, release };
}

/** Resolves at the next robots.txt request. */
function nextRobotsHit(): Promise<void> {
  return new Promise((resolve) => (robotsHit = resolve));
}

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} – Field Notes</title></head><body>` +
    `<div class="cookie-banner">We use cookies to remember your reading list. <button>Accept</button></div>` +
    `<header><a href="/state/">Field Notes</a><nav><a href="/state/">Home</a> <a href="/state/about">About</a></nav>` +
    `</header><main><h1>${title}</h1>${body}</main>` +
    `<footer><p>© 2026 Field Notes. Written on weekends.</p></footer></body></html>`
  );
}

beforeAll(async () => {
  server = await startFixtureServer({
    routes: {
      '/robots.txt': async (_req, res) => {
        robotsHit?.();
        if (robotsHeld) await robotsHeld.released;
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      },
      '/state/*': async (_req, res, ctx) => {
        const path = ctx.url.pathname;
        let html: string;
        if (path === '/state/') {
          const items = Array.from(
            { length: ARTICLES },
            (_, i) => `<li><a href="/state/notes/${i + 1}">Note ${i + 1}: a walk along the river</a></li>`,
          ).join('');
          html = page('Latest notes', `<p>Short notes from the field, newest first.</p><ul>${items}</ul>`);
        } else if (/^\/state\/notes\/\d+$/.test(path)) {
          if (pagesHeld) await pagesHeld.released;
          const n = path.split('/').pop();
          html = page(
            `Note ${n}`,
            `<p>The river was high after the rain, and the path along it was muddy in places.</p>` +
              `<p>Note ${n} records the birds seen between the bridge and the weir, with the time of each.</p>`,
          );
        } else if (path === '/state/about') {
          html = page('About', '<p>Field Notes is kept by two friends who walk the same river every weekend.</p>');
        } else {
          res.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', '<p>No such page.</p>'));
          return;
        }
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      },
    },
  });
});

afterAll(async () => {
  robotsHeld?.release();
  pagesHeld?.release();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a stopped engine leaves its jobs as they were', () => {
  it('close() while the crawl loads robots.txt keeps the job resumable, and resume finishes it', async () => {
    const dir = mkdtempSync(join(root, 'close-'));
    robotsHeld = hold();
    const loading = nextRobotsHit();
    const first = new Crawlkit({ storeDir: dir, engine: 'http' });
    const started = ok<CrawlResponse>(await first.crawl({ url: `${server.url}/state/`, limit: 20 }));
    await loading;
    await first.close();

    const second = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const status = ok<JobStatusResponse>(await second.getCrawlStatus(started.id));
      expect(status.status).toBe('scraping');
      robotsHeld.release();
      robotsHeld = undefined;
      expect(await second.resumeJob(started.id)).toEqual({ success: true, id: started.id });
      const done = ok<JobStatusResponse>(await second.waitForJob(started.id));
      expect(done.status).toBe('completed');
      expect(done.data).toHaveLength(PAGES);
    } finally {
      await second.close();
    }
  });
});

describe('resuming a job another engine is running', () => {
  it('leaves the finished job completed, with no failed webhook event, when the resuming engine closes', async () => {
    const dir = mkdtempSync(join(root, 'resume-'));
    const receiver = await startReceiver();
    const runner = new Crawlkit({ storeDir: dir, engine: 'http' });
    const resumer = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      pagesHeld = hold();
      const started = ok<CrawlResponse>(
        await runner.crawl({ url: `${server.url}/state/`, limit: 20, webhook: receiver.url }),
      );
      // The job is running in `runner`; `resumer` waits for its lease.
      expect(await resumer.resumeJob(started.id)).toEqual({ success: true, id: started.id });
      pagesHeld.release();
      pagesHeld = undefined;
      const done = ok<JobStatusResponse>(await runner.waitForJob(started.id));
      expect(done.status).toBe('completed');
      expect(done.data).toHaveLength(PAGES);

      // The lease is free now. Were `resumer` to run the finished job, it would load robots.txt again: hold it there,
      // so that closing `resumer` aborts that load.
      robotsHeld = hold();
      await Promise.race([nextRobotsHit(), sleep(3_000)]);
      await resumer.close();
      robotsHeld.release();
      robotsHeld = undefined;

      const after = ok<JobStatusResponse>(await runner.getCrawlStatus(started.id));
      expect(after.status).toBe('completed');
      expect(after.completed).toBe(PAGES);
      await runner.close();
      const types = receiver.events.map((e) => e.payload.type);
      expect(types).toContain('crawl.completed');
      expect(types).not.toContain('crawl.failed');
    } finally {
      await resumer.close();
      await runner.close();
      await receiver.close();
    }
  });
});
