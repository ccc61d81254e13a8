import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { summarizeProfile } from './cpu-profile.ts';
import { startPageServer } from './page-server.ts';
import { formatNumber, goal, median, percentile, withRatios } from './report.ts';
import { createRunner } from './scrape-runners.ts';

describe('report helpers', () => {
  it('judges goals both ways and leaves unmeasured ones open', () => {
    expect(goal('a', 'x', 5.2, 5, '').pass).toBe(true);
    expect(goal('a', 'x', 4.9, 5, '').pass).toBe(false);
    expect(goal('a', 'x', 2.9, 3, '', { atMost: true }).pass).toBe(true);
    expect(goal('a', 'x', 3.1, 3, '', { atMost: true }).pass).toBe(false);
    expect(goal('a', 'x', Number.NaN, 3, '').pass).toBeNull();
  });

  it('adds each row’s ratio to the crawlkit row', () => {
    const rows = withRatios(
      [
        { row: 'crawlkit', 'pages/s': 50 },
        { row: 'naive', 'pages/s': 2 },
        { row: 'broken', 'pages/s': null },
      ],
      'pages/s',
      'crawlkit',
    );
    expect(rows.map((r) => r['vs crawlkit'])).toEqual([1, 0.04, null]);
  });

  it('computes medians, percentiles and short numbers', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(Number.isNaN(median([]))).toBe(true);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5)).toBe(5);
    expect([1234.5, 12.345, 0.012345, 3].map(formatNumber)).toEqual(['1235', '12.3', '0.0123', '3']);
  });
});

describe('cpu profile summary', () => {
  it('ranks self time by function and by file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-bench-prof-test-'));
    try {
      const file = join(dir, 'p.cpuprofile');
      const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });
      writeFileSync(
        file,
        JSON.stringify({
          startTime: 0,
          endTime: 100_000, // 100 ms
          nodes: [
            { id: 1, callFrame: frame('(root)', ''), hitCount: 0 },
            {
              id: 2,
              callFrame: frame('parse', 'file:///r/node_modules/.pnpm/x@1/node_modules/x/a.js', 9),
              hitCount: 6,
            },
            { id: 3, callFrame: frame('walk', 'file:///r/packages/p/dist/w.js'), hitCount: 3 },
            { id: 4, callFrame: frame('(garbage collector)', ''), hitCount: 1 },
          ],
        }),
      );
      const s = summarizeProfile(file, '/r', 10);
      expect(s.totalMs).toBe(100);
      expect(s.functions[0]).toEqual({ name: 'parse (node_modules/x/a.js:10)', selfMs: 60, share: 0.6 });
      expect(s.files.map((f) => f.name)).toEqual([
        'node_modules/x/a.js',
        'packages/p/dist/w.js',
        '((garbage collector))',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scrape-http runners against the page server', () => {
  const html = (title: string) =>
    `<!doctype html><html><head><title>${title}</title><meta name="description" content="d"></head><body>` +
    `<nav><a href="/a">A</a></nav><article><h1>${title}</h1>${'<p>Some words of the article body, long enough to count as content.</p>'.repeat(20)}</article></body></html>`;

  it('serves pages and 404s, and every row produces output for every page', { timeout: 120_000 }, async () => {
    const server = await startPageServer(
      new Map([
        ['/1.html', html('One')],
        ['/2.html', html('Two')],
      ]),
    );
    try {
      expect((await fetch(`${server.url}/missing`)).status).toBe(404);
      const urls = [`${server.url}/1.html`, `${server.url}/2.html`];
      for (const name of ['crawlkit', 'floor', 'naive'] as const) {
        const runner = await createRunner(name, 2, 2);
        const out = await runner.run(urls);
        await runner.close();
        expect(out, name).toHaveLength(2);
        for (const chars of out) expect(chars, name).toBeGreaterThan(100);
      }
      // A page that fails yields 0, which the benchmark counts as failed.
      const floor = await createRunner('floor', 1, 1);
      expect(await floor.run([`${server.url}/missing`])).toEqual([0]);
      await floor.close();
    } finally {
      await server.close();
    }
  });
});
