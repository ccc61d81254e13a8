import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { threadId } from 'node:worker_threads';

import { afterAll, describe, expect, it } from 'vitest';

import { scrapeRequestSchema } from '../v2/scrape-options.js';
import { extractionSettings } from '../scrape/extraction-settings.js';
import type { CallTimes } from './call-times.js';
import type { ExtractionRequest } from './extraction.js';
import { ExtractionPool, type CallStart } from './pool.js';

const settings = extractionSettings(
  scrapeRequestSchema.parse({ url: 'http://127.0.0.1/page', formats: ['markdown', 'links'] }),
  false,
);

const page = (html: string, budgetMs?: number, url = 'http://127.0.0.1/page'): ExtractionRequest => ({
  page: { url, contentType: 'text/html', kind: 'html', text: html },
  settings,
  ...(budgetMs !== undefined ? { budgetMs } : {}),
});

/** A page that keeps a worker busy for a while (800 KB of paragraphs): still running when the test acts on it. */
const big = `<html><body><main>${'<p>Some words of a long article, <a href="/x">a link</a> and more words.</p>'.repeat(10_000)}</main></body></html>`;

/** Runs `fn` on every call start of the pool while the test runs. */
function onCallStart(fn: (start: CallStart) => void): () => void {
  const listener = (message: unknown) => fn(message as CallStart);
  subscribe('crawlkit:extraction:call-start', listener);
  return () => unsubscribe('crawlkit:extraction:call-start', listener);
}

const pool = ExtractionPool.acquire({ size: 1, maxMemoryMb: 256 });
afterAll(() => pool.release());

describe('ExtractionPool', () => {
  it('extracts a page in a worker thread, as plain data', async () => {
    // The start may arrive after the result (two message ports): wait for it rather than assume an order.
    const started = new Promise<number>((resolve) => {
      const stop = onCallStart((s) => (stop(), resolve(s.threadId)));
    });
    const content = await pool.extract(page('<main><h1>Title</h1><p>Text with <a href="/a">a link</a>.</p></main>'));
    expect(content.markdown).toContain('# Title');
    expect(content.links).toEqual(['http://127.0.0.1/a']);
    expect(await started).not.toBe(threadId);
  });

  it("tells the caller where a call's time went: the wait for a worker, the run and its CPU, the reply", async () => {
    const told: CallTimes[] = [];
    const content = await pool.extract(page(big), undefined, { onTimes: (times) => told.push(times) });
    expect(content.markdown).toContain('Some words of a long article');
    expect(told).toHaveLength(1);
    const [times] = told;
    expect(times!.runMs).toBeGreaterThan(0);
    expect(times!.cpuMs).toBeGreaterThan(0);
    // A thread's CPU is accounted at context switches and scheduler ticks (4 ms at 250 Hz): a tick's worth may fall
    // on either side of the run's edges. The whole thread's CPU (its start, its compiles) would be far more.
    expect(times!.cpuMs).toBeLessThanOrEqual(times!.runMs + 5);
    expect(times!.waitMs).toBeGreaterThanOrEqual(0);
    expect(times!.replyMs).toBeGreaterThanOrEqual(0);
  });

  it('times a call run on the calling thread (a pool of size 0) the same way', async () => {
    const inThread = ExtractionPool.acquire({ size: 0, maxMemoryMb: 256 });
    try {
      const told: CallTimes[] = [];
      // A page long enough to take more than a scheduler tick: a thread's CPU is accounted by them.
      await inThread.extract(page(big), undefined, { onTimes: (times) => told.push(times) });
      expect(told).toHaveLength(1);
      expect(told[0]!.cpuMs).toBeGreaterThan(0);
    } finally {
      await inThread.release();
    }
  });

  it("passes the judge's countAll to the worker: false stops counting once the verdict is settled", async () => {
    const judged = { url: 'http://127.0.0.1/page', status: 200, contentType: 'text/html', text: big };
    const whole = await pool.judgeAndExtract(judged, page(big));
    const settled = await pool.judgeAndExtract(judged, page(big), { countAll: false });
    expect(whole.verdict.reason).toBeUndefined();
    expect(settled.verdict.reason).toBeUndefined();
    expect(settled.verdict.contentChars).toBeLessThan(whole.verdict.contentChars!);
    expect(settled.extraction?.markdown).toBe(whole.extraction?.markdown);
    expect((await pool.judge(judged, { countAll: false })).contentChars).toBe(settled.verdict.contentChars);
  });

  it('stops a running call when its signal aborts, and the next call gets a fresh thread', async () => {
    // Only this test's calls: the start of an earlier test's last call may arrive after its answer, i.e. now.
    const threads: number[] = [];
    const stop = onCallStart((s) => s.kind === 'extract' && threads.push(s.threadId));
    const controller = new AbortController();
    const reason = new Error('deadline');
    const started = new Promise<void>((resolve) => {
      const unsub = onCallStart((s) => s.kind === 'extract' && (unsub(), resolve()));
    });
    const running = pool.extract(page(big), controller.signal);
    await started;
    const at = Date.now();
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(Date.now() - at).toBeLessThan(1_000);
    // A page long enough that its start is announced before its answer (the two travel on different ports).
    expect((await pool.extract(page(big))).markdown).toContain('Some words of a long article');
    stop();
    expect(threads).toHaveLength(2);
    expect(threads[1]).not.toBe(threads[0]);
  });

  it('retries a call once when its worker dies, then fails with SCRAPE_EXTRACTION_FAILED', async () => {
    let kills = 1;
    const stop = onCallStart((s) => {
      if (kills-- > 0) void s.terminate();
    });
    const once = await pool.extract(page(big));
    expect(once.markdown).toContain('Some words of a long article');

    kills = 2;
    // What to do is said, as the table's action: retry, and report it if it repeats.
    await expect(pool.extract(page(big))).rejects.toMatchObject({
      code: 'SCRAPE_EXTRACTION_FAILED',
      message: expect.stringMatching(
        /^The worker thread extracting the page stopped \(.+\), and again in a fresh thread, so the page was not extracted\. Retry it; if it fails so again, report it with the page\.$/,
      ),
    });
    stop();
    expect((await pool.extract(page('<p>still working</p>'))).markdown).toBe('still working');
  });

  it('returns the plain text with a warning when the budget cuts the extraction', async () => {
    const content = await pool.extract(page(big, 1));
    expect(content.cut).toBe(true);
    expect(content.warnings[0]).toMatch(/took longer than its budget \(extractionBudgetMs: 1 ms\)/);
    expect(content.markdown).toMatch(/^Some words of a long article, a link and more words\.\n\nSome words/);
    expect(content.links).toEqual([]);
  });

  it('sends a worker its next call while it runs one: it starts it while the main thread is busy', async () => {
    const starts = new Map<string, CallStart>();
    const stop = onCallStart((s) => starts.set(s.url!, s));
    const firstStarted = new Promise<void>((resolve) => {
      const unsub = onCallStart((s) => s.url?.endsWith('/first') && (unsub(), resolve()));
    });
    const secondStarted = new Promise<void>((resolve) => {
      const unsub = onCallStart((s) => s.url?.endsWith('/second') && (unsub(), resolve()));
    });
    try {
      // Small: under load an 80 KB first call outlasted the block below, and the second started after it.
      const first = pool.extract(page(big.slice(0, 10_000), undefined, 'http://127.0.0.1/first'));
      const second = pool.extract(page('<p>next</p>', undefined, 'http://127.0.0.1/second'));
      await firstStarted;
      // The main thread holds its event loop well past the first call's end: the second starts meanwhile or not at all.
      const until = Date.now() + 3_000;
      while (Date.now() < until);
      const blockEnd = performance.timeOrigin + performance.now();
      expect((await second).markdown).toBe('next');
      await first;
      // A start comes over the worker's own port and may arrive after the answer: read, it was not told to the next
      // test (whose list of starts it joined in a fresh-clone run).
      await secondStarted;
      expect(starts.get('http://127.0.0.1/second')!.startedAt).toBeLessThan(blockEnd);
      expect(starts.get('http://127.0.0.1/second')!.threadId).toBe(starts.get('http://127.0.0.1/first')!.threadId);
    } finally {
      stop();
    }
  });

  it('cancels an aborted call its worker holds but has not started; the call running there goes on', async () => {
    const started: string[] = [];
    const stop = onCallStart((s) => started.push(s.url!));
    const runningStarted = new Promise<void>((resolve) => {
      const unsub = onCallStart((s) => s.url?.endsWith('/running') && (unsub(), resolve()));
    });
    try {
      const running = pool.extract(page(big, undefined, 'http://127.0.0.1/running'));
      const controller = new AbortController();
      const held = pool.extract(page('<p>held</p>', undefined, 'http://127.0.0.1/held'), controller.signal);
      await runningStarted;
      const reason = new Error('deadline');
      controller.abort(reason);
      await expect(held).rejects.toBe(reason);
      expect((await running).markdown).toContain('Some words of a long article');
      // A start comes over the worker's own port, in order, and may arrive after the answer: once the next call's
      // start is in, the held call's would be too, had it started.
      const afterStarted = new Promise<void>((resolve) => {
        const unsub = onCallStart((s) => s.url?.endsWith('/after') && (unsub(), resolve()));
      });
      expect((await pool.extract(page('<p>after</p>', undefined, 'http://127.0.0.1/after'))).markdown).toBe('after');
      await afterStarted;
      expect(started).toEqual(['http://127.0.0.1/running', 'http://127.0.0.1/after']);
    } finally {
      stop();
    }
  });

  it('sends a held call again when its worker is stopped under another call, without counting it a failure', async () => {
    const started: string[] = [];
    const stop = onCallStart((s) => {
      started.push(s.url!);
      if (s.url?.endsWith('/doomed')) void s.terminate();
    });
    try {
      const heldStarted = new Promise<void>((resolve) => {
        const unsub = onCallStart((s) => s.url?.endsWith('/held') && (unsub(), resolve()));
      });
      const doomed = pool.extract(page(big, undefined, 'http://127.0.0.1/doomed'));
      const held = pool.extract(page('<p>held</p>', undefined, 'http://127.0.0.1/held'));
      await expect(doomed).rejects.toMatchObject({ code: 'SCRAPE_EXTRACTION_FAILED' });
      expect((await held).markdown).toBe('held');
      // Its start may arrive after its answer (two ports): wait for it; a start on the stopped worker came before.
      await heldStarted;
      expect(started.filter((url) => url.endsWith('/held'))).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('fails with SCRAPE_PAGE_TOO_COMPLEX when a page needs more than maxMemoryMb, and goes on', async () => {
    const small = ExtractionPool.acquire({ size: 1, maxMemoryMb: 64 });
    try {
      const table = `<table>${`<tr>${'<td>cell</td>'.repeat(1_000)}</tr>`.repeat(1_000)}</table>`;
      await expect(small.extract(page(table))).rejects.toMatchObject({
        code: 'SCRAPE_PAGE_TOO_COMPLEX',
        message: expect.stringMatching(/workers\.maxMemoryMb \(64 MiB\)/),
      });
      expect((await small.extract(page('<p>next page</p>'))).markdown).toBe('next page');
    } finally {
      await small.release();
    }
  });
});
