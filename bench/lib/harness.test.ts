import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { BENCHMARKS } from './benchmarks.ts';
import { summarizeProfile } from './cpu-profile.ts';
import { startPageServer } from './page-server.ts';
import { formatNumber, goal, median, percentile, withRatios } from './report.ts';
import { createRunner } from './scrape-runners.ts';
import { collectGoals, readResult, type Outcome } from './summary.ts';
import { loadWcxbPages } from './wcxb.ts';

const BENCH_DIR = join(import.meta.dirname, '..');

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
  it('ranks self time by function and by file, idle time apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-bench-prof-test-'));
    try {
      const file = join(dir, 'p.cpuprofile');
      const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });
      writeFileSync(
        file,
        JSON.stringify({
          startTime: 0,
          endTime: 200_000, // 200 ms, 20 samples
          nodes: [
            { id: 1, callFrame: frame('(root)', ''), hitCount: 0 },
            {
              id: 2,
              callFrame: frame('parse', 'file:///r/node_modules/.pnpm/x@1/node_modules/x/a.js', 9),
              hitCount: 6,
            },
            { id: 3, callFrame: frame('walk', 'file:///r/packages/p/dist/w.js'), hitCount: 3 },
            { id: 4, callFrame: frame('(garbage collector)', ''), hitCount: 1 },
            { id: 5, callFrame: frame('(idle)', ''), hitCount: 10 },
          ],
        }),
      );
      const s = summarizeProfile(file, '/r', 10);
      expect(s.totalMs).toBe(200);
      expect(s.idleMs).toBe(100);
      // shares of the busy time
      expect(s.functions[0]).toEqual({ name: 'parse (node_modules/x/a.js:10)', selfMs: 60, share: 0.6 });
      expect(s.functions.map((f) => f.name)).not.toContain('(idle)');
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

describe('cpu profile summary over a window', () => {
  it('counts only the samples taken inside the window', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-bench-prof-test-'));
    try {
      const file = join(dir, 'p.cpuprofile');
      const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
      // 10 samples, 10 ms apart from t = 1,000,000 µs: warm-up (compile) then the timed part (parse, walk)
      const samples = [2, 2, 2, 2, 3, 3, 5, 4, 3, 5];
      writeFileSync(
        file,
        JSON.stringify({
          startTime: 1_000_000,
          endTime: 1_100_000,
          nodes: [
            { id: 1, callFrame: frame('(root)', '') },
            { id: 2, callFrame: frame('compile', 'file:///r/packages/p/dist/c.js') },
            { id: 3, callFrame: frame('parse', 'file:///r/packages/p/dist/a.js') },
            { id: 4, callFrame: frame('walk', 'file:///r/packages/p/dist/w.js') },
            { id: 5, callFrame: frame('(idle)', '') },
          ],
          samples,
          timeDeltas: samples.map(() => 10_000),
        }),
      );
      // the samples at 1,050,000 to 1,090,000 µs: parse, parse, idle, walk, parse
      const s = summarizeProfile(file, '/r', 10, { startUs: 1_045_000, endUs: 1_095_000 });
      expect(s.totalMs).toBe(50);
      expect(s.idleMs).toBe(10);
      expect(s.functions.map((f) => [f.name, f.share])).toEqual([
        ['parse (packages/p/dist/a.js:1)', 0.75],
        ['walk (packages/p/dist/w.js:1)', 0.25],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scrape-http runners against the page server', () => {
  const html = (title: string) =>
    `<!doctype html><html><head><title>${title}</title><meta name="description" content="d"></head><body>` +
    `<nav><a href="/a">A</a></nav><article><h1>${title}</h1>${Array.from({ length: 20 }, (_, i) => `<p>Paragraph ${i} of the article body, long enough to count as content.</p>`).join('')}</article></body></html>`;

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

describe('benchmark list (bench/run.ts)', () => {
  it('runs every benchmark script there is, each writing the shared result format', () => {
    const scripts = readdirSync(BENCH_DIR).filter((f) => /^[a-z].*\.ts$/.test(f) && f !== 'run.ts');
    expect(BENCHMARKS.map((b) => b.file).sort()).toEqual(scripts.sort());
    for (const b of BENCHMARKS) {
      const source = readFileSync(join(BENCH_DIR, b.file), 'utf8');
      // finish() records the machine and writes bench/results/<name>.json; isQuick() honours --quick.
      expect(source, b.file).toMatch(new RegExp(`finish\\(\\{\\s*name: '${b.name}'`));
      expect(source, b.file).toContain('isQuick(');
      for (const g of b.goals) expect(source, `${b.file} reports ${g.id}`).toContain(`'${g.id}'`);
      // ...and the list names every goal the script reports (`goal('id', ...` or `goal(\n  'id',`).
      const reported = [...source.matchAll(/\bgoal\(\s*'([^']+)'/g)].map((m) => m[1]);
      expect(reported.length, b.file).toBe(new Set(reported).size);
      expect(b.goals.map((g) => g.id).sort(), b.file).toEqual(reported.sort());
      expect(b.limitMin.quick).toBeLessThan(b.limitMin.full);
    }
  });

  it("lists every goal of issue 11 with the issue's thresholds", () => {
    const issue = BENCHMARKS.flatMap((b) => b.goals.filter((g) => g.issue).map((g) => `${g.id}: ${g.goal}`));
    expect(issue).toEqual(
      expect.arrayContaining([
        "scrape-http.vs-naive: scrape-http >= 5x the naive pipeline's pages/s",
        'scrape-http.vs-floor: scrape-http within 3x of the parse-only floor',
        "crawl-http.vs-crawlee: crawl-http >= 1.5x Crawlee's pages/min with markdown on",
        'crawl-http.rss: crawl-http lower peak RSS than Crawlee',
        "browser.vs-crawlee: browser >= 1.3x Crawlee's rendered pages/s",
        'browser.leftovers: browser: zero Chromium processes left',
        'markdown.vs-turndown: markdown >= 4x turndown at the median page',
        'markdown.linear: markdown linear in size',
        'cache.hit-vs-miss: cache hit >= 50x faster than a miss',
      ]),
    );
  });
});

describe('run summary', () => {
  const expected = [
    { id: 'a.speed', goal: 'a >= 2x', issue: true },
    { id: 'a.own', goal: 'a own', issue: false },
  ];
  const result = (goals: { id: string; pass: boolean | null }[]) => ({
    name: 'a',
    title: 'a',
    date: '',
    quick: true,
    machine: { cpus: 2, cpuModel: '', memoryGiB: 1, node: '', chromium: null, platform: '', loadAverage: [] },
    durationMs: 1,
    rows: [],
    goals: goals.map((g) => ({ ...g, goal: `${g.id} as reported`, value: 'v' })),
  });

  it('keeps reported goals, names why an expected one is missing, and puts issue 11 first', () => {
    const outcomes: Outcome[] = [
      {
        benchmark: { name: 'a', goals: expected },
        status: 'ok',
        seconds: 1,
        result: result([
          { id: 'a.own', pass: false },
          { id: 'a.extra', pass: true },
        ]),
      },
      { benchmark: { name: 'b', goals: [{ id: 'b.x', goal: 'b x', issue: true }] }, status: 'timed out', seconds: 9 },
    ];
    const goals = collectGoals(outcomes);
    expect(goals.map((g) => [g.benchmark, g.id, g.pass, g.issue])).toEqual([
      ['a', 'a.speed', null, true],
      ['b', 'b.x', null, true],
      ['a', 'a.own', false, false],
      ['a', 'a.extra', true, false],
    ]);
    expect(goals[0]!.value).toBe('(not reported)');
    expect(goals[1]!.value).toBe('(timed out)');
    expect(goals[2]!.goal).toBe('a.own as reported');
  });

  it('reads only a result written during this run, in the shared format', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-bench-summary-test-'));
    try {
      expect(readResult(dir, 'a', 0).note).toBe('bench/results/a.json not written');
      writeFileSync(join(dir, 'a.json'), JSON.stringify(result([{ id: 'a.speed', pass: true }])));
      expect(readResult(dir, 'a', 0).result?.goals[0]?.id).toBe('a.speed');
      utimesSync(join(dir, 'a.json'), new Date(1000), new Date(1000));
      expect(readResult(dir, 'a', Date.now() - 60_000).note).toBe('bench/results/a.json not written');
      writeFileSync(join(dir, 'b.json'), JSON.stringify({ rows: [] }));
      expect(readResult(dir, 'b', 0).note).toMatch(/no goals/);
      writeFileSync(join(dir, 'c.json'), '{');
      expect(readResult(dir, 'c', 0).note).toMatch(/unreadable/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WCXB loader', () => {
  it('reads all pages, a set of ids, or every Nth in id order', () => {
    const root = mkdtempSync(join(tmpdir(), 'ck-bench-wcxb-test-'));
    try {
      mkdirSync(join(root, 'html'));
      mkdirSync(join(root, 'ground-truth'));
      for (const id of ['0003', '0001', '0002', '0004', '0005']) {
        writeFileSync(join(root, 'html', `${id}.html.gz`), gzipSync(`<p>page ${id}</p>`));
        writeFileSync(join(root, 'ground-truth', `${id}.json`), JSON.stringify({ url: `https://e.test/${id}` }));
      }
      expect(loadWcxbPages(root).map((p) => p.id)).toEqual(['0001', '0002', '0003', '0004', '0005']);
      expect(loadWcxbPages(root, new Set(['0004', '0002'])).map((p) => p.id)).toEqual(['0002', '0004']);
      const every = loadWcxbPages(root, { every: 2 });
      expect(every.map((p) => p.id)).toEqual(['0001', '0003', '0005']);
      // The pages between them (a benchmark's warm-up set: none of the measured ones).
      expect(loadWcxbPages(root, { every: 2, offset: 1 }).map((p) => p.id)).toEqual(['0002', '0004']);
      expect(every[1]).toEqual({
        id: '0003',
        url: 'https://e.test/0003',
        html: '<p>page 0003</p>',
        type: 'article',
        reference: '',
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads the pages of some types, and only their HTML (bench:extract --type)', () => {
    const root = mkdtempSync(join(tmpdir(), 'ck-bench-wcxb-test-'));
    try {
      mkdirSync(join(root, 'html'));
      mkdirSync(join(root, 'ground-truth'));
      const types = { '0001': 'product', '0002': { primary: 'category' }, '0003': 'article', '0004': 'product' };
      for (const [id, pageType] of Object.entries(types)) {
        // an article's HTML is not gzip: reading it would throw
        const html = pageType === 'article' ? Buffer.from('not gzip') : gzipSync(`<p>page ${id}</p>`);
        writeFileSync(join(root, 'html', `${id}.html.gz`), html);
        writeFileSync(
          join(root, 'ground-truth', `${id}.json`),
          JSON.stringify({ url: `https://e.test/${id}`, _internal: { page_type: pageType } }),
        );
      }
      const pages = loadWcxbPages(root, { types: ['product', 'collection'] });
      expect(pages.map((p) => [p.id, p.type])).toEqual([
        ['0001', 'product'],
        ['0002', 'collection'],
        ['0004', 'product'],
      ]);
      expect(pages[2]!.html).toBe('<p>page 0004</p>');
      expect(() => loadWcxbPages(root)).toThrow();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
