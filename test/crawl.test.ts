import { beforeAll, describe, expect, it } from 'vitest';

import { startCrawlSite, testHostsLookup } from '../fixtures/crawl-site/harness.ts';
import { SLOW_RETRY_AFTER_S } from '../fixtures/crawl-site/routes.ts';
import { crawlRunner, expectSpaced, ok, type CrawlRun } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const env = useFixtureEngine({
  server: startCrawlSite,
  crawlkit: (dir) => ({ storeDir: dir, engine: 'http', http: { lookup: testHostsLookup } }),
});

const crawl = crawlRunner(env);

const sorted = (values: string[]) => [...values].sort();

/** The calendar's months are siblings of the seed: outside its scope unless the whole domain is admitted. */
const calendarOnly = { sitemap: 'skip' as const, crawlEntireDomain: true, includePaths: ['^/calendar/'] };

describe('crawl of the fixture site', () => {
  let run: CrawlRun;
  let hitsBefore: number;

  beforeAll(async () => {
    hitsBefore = env.server.hits.length;
    // One page at a time: a page already on its way when /slow's 429 arrives is no breach of its Retry-After, and
    // with more than one such a page (or the next hop of its redirects) reaches the server inside the window.
    run = await crawl({ url: '/', excludePaths: ['^/calendar/'], maxConcurrency: 1 });
  });

  it('stores exactly the reachable pages: sitemaps, links, one page per duplicate group', () => {
    expect(run.status.status).toBe('completed');
    expect(run.pages).toEqual(
      sorted([
        '/',
        '/about',
        '/blog/',
        '/blog/post-1',
        '/blog/post-2',
        '/docs',
        '/docs/a',
        '/docs/b',
        '/docs/c/deep',
        '/docs/sitemap-only',
        '/docsearch',
        '/landing',
        '/only-in-sitemap-1',
        '/only-in-sitemap-2',
        'www.site.test/only-in-sitemap-3',
        '/products?id=1&color=red',
        '/products?id=2',
        '/report.pdf',
        '/slow',
      ]),
    );
    // Each page once: `/index.html`, `www.` and `?utm_*` variants, reordered parameters, a redirect target reached
    // twice and a page whose rel=canonical names another page are all folded.
    expect(new Set(run.pages).size).toBe(run.pages.length);
  });

  it('counts every task and pages through results with next', async () => {
    expect(run.status.completed).toBe(run.status.total);
    expect(run.status.data).toHaveLength(19);
    const seen: string[] = [];
    let page = ok(await env.ck.getCrawlStatus(run.id, { limit: 5 }));
    expect(page.data).toHaveLength(5);
    seen.push(...page.data.map((d) => d.metadata.sourceURL));
    let calls = 1;
    while (page.next) {
      expect(page.next).toMatch(/^crawlkit:\/\/v2\/crawl\/[0-9a-f-]+\?skip=\d+&limit=5$/);
      page = ok(await env.ck.getCrawlStatus(page.next));
      seen.push(...page.data.map((d) => d.metadata.sourceURL));
      calls++;
    }
    expect(calls).toBe(4);
    expect(page.data).toHaveLength(4);
    expect(new Set(seen).size).toBe(19);
  });

  it('lists denied redirects as errors and robots-blocked URLs, and warns about robots.txt', () => {
    expect(run.errors.errors).toHaveLength(1);
    expect(run.errors.errors[0]).toMatchObject({
      url: env.server.url('/away'),
      code: 'CRAWL_DENIAL',
      // Before: the message stopped at the reason, without the target the page had gone to.
      error: expect.stringMatching(
        /^Redirected target URL is not allowed by crawlOptions \(\w+\): it redirected to http:\/\/other\.test:\d+\/landed$/,
      ) as unknown,
    });
    expect(sorted(run.errors.robotsBlocked)).toEqual([
      env.server.url('/private/hidden'),
      env.server.url('/private/secret'),
    ]);
    expect(run.status.warning).toContain('robots.txt');
    expect(run.status.warning).toContain('/scrape endpoint');
  });

  it('follows a redirect chain to its target and keeps the requested URL as sourceURL', () => {
    const landing = run.status.data.find((d) => d.metadata.url === env.server.url('/landing'))!;
    expect([env.server.url('/hop/1'), env.server.url('/landing')]).toContain(landing.metadata.sourceURL);
    expect(landing.metadata.statusCode).toBe(200);
  });

  it('honours Retry-After on a 429 and stores the page once it answers', () => {
    const slow = run.status.data.find((d) => d.metadata.sourceURL === env.server.url('/slow'))!;
    expect(slow.metadata.statusCode).toBe(200);
    const hits = env.server.hits.slice(hitsBefore).filter((h) => h.path === '/slow');
    const last429 = hits.filter((h) => h.status === 429).at(-1)!;
    const success = hits.find((h) => h.status === 200)!;
    expect(success.at - last429.at).toBeGreaterThanOrEqual(SLOW_RETRY_AFTER_S * 1000);
    // The whole host rested: no other page of env.server.test was fetched during the Retry-After window.
    const during = env.server.hits
      .slice(hitsBefore)
      .filter((h) => h.host === 'site.test' && h.at > last429.at && h.at < last429.at + SLOW_RETRY_AFTER_S * 1000);
    expect(during).toEqual([]);
  });

  it('never fetches excluded, robots-blocked, file, non-web or social links', () => {
    const paths = env.server.hits.slice(hitsBefore).map((h) => h.path);
    expect(paths.some((p) => p.startsWith('/calendar/'))).toBe(false);
    expect(paths.some((p) => p.startsWith('/private/'))).toBe(false);
    expect(paths).not.toContain('/assets/logo.png');
    expect(paths).not.toContain('/canonical-dup?x');
    expect(env.server.hits.slice(hitsBefore).some((h) => h.host === 'other.test' && h.path === '/page')).toBe(false);
    expect(env.server.hits.slice(hitsBefore).some((h) => h.host === 'blog.site.test')).toBe(false);
  });

  it('keeps PDF links and parses them', () => {
    const pdf = run.status.data.find((d) => d.metadata.sourceURL === env.server.url('/report.pdf'))!;
    expect(pdf.metadata.numPages).toBeGreaterThan(0);
    expect(pdf.markdown?.length).toBeGreaterThan(0);
  });
});

describe('crawl scope and patterns', () => {
  it('keeps to the seed directory: /docs admits /docs/... but not /docsearch or parents', async () => {
    const run = await crawl({ url: '/docs', sitemap: 'skip' });
    expect(run.pages).toEqual(['/docs', '/docs/a', '/docs/b', '/docs/c/deep']);
  });

  it('adds in-scope sitemap URLs, including those no page links to', async () => {
    const run = await crawl({ url: '/docs', sitemap: 'include' });
    expect(run.pages).toEqual(['/docs', '/docs/a', '/docs/b', '/docs/c/deep', '/docs/sitemap-only']);
  });

  it('crawlEntireDomain goes to parents and siblings; maxDiscoveryDepth stops link discovery', async () => {
    const run = await crawl({ url: '/docs', sitemap: 'skip', crawlEntireDomain: true, maxDiscoveryDepth: 1 });
    expect(run.pages).toEqual(['/', '/docs', '/docs/a', '/docs/b', '/docsearch']);
  });

  it('maxDiscoveryDepth 0 is the seed alone (with sitemaps skipped)', async () => {
    const run = await crawl({ url: '/', sitemap: 'skip', maxDiscoveryDepth: 0 });
    expect(run.pages).toEqual(['/']);
  });

  it('includePaths: the seed is fetched for its links but not kept unless it matches', async () => {
    const run = await crawl({ url: '/', sitemap: 'skip', includePaths: ['^/docs/'] });
    expect(run.pages).toEqual(['/docs/a', '/docs/b', '/docs/c/deep']);
  });

  it('includePaths ^/blog$ from /blog returns only /blog (item 41)', async () => {
    const run = await crawl({ url: '/blog', includePaths: ['^/blog$'] });
    expect(run.pages).toEqual(['/blog']);
  });

  it('excludePaths removes matching pages and what only they link to', async () => {
    const run = await crawl({
      url: '/',
      sitemap: 'skip',
      maxDiscoveryDepth: 1,
      excludePaths: ['^/blog', '^/calendar', 'product'],
    });
    expect(run.pages).toEqual(
      sorted(['/', '/about', '/docs', '/docs/a', '/docsearch', '/landing', '/report.pdf', '/slow']),
    );
  });

  it('regexOnFullURL matches patterns against the whole URL', async () => {
    const pattern = '^http://site\\.test:\\d+/docs/[ab]$';
    const full = await crawl({ url: '/docs', sitemap: 'skip', regexOnFullURL: true, includePaths: [pattern] });
    expect(full.pages).toEqual(['/docs/a', '/docs/b']);
    const onPath = await crawl({ url: '/docs', sitemap: 'skip', includePaths: [pattern] });
    expect(onPath.pages).toEqual([]);
    expect(onPath.status.warning).toMatch(/^Only 0 result\(s\) found\. .*crawlEntireDomain=true/);
    // Then why: the pattern names the whole URL, and only the path is tested.
    expect(onPath.status.warning).toContain(
      `The patterns are tested on the path (\`/docs\`), so \`${pattern}\` cannot match: set \`regexOnFullURL\``,
    );
  });

  it('allowSubdomains follows other hosts of the registrable domain', async () => {
    const seed = env.server.url('/', 'blog.site.test');
    const withSubdomains = await crawl({ url: seed, sitemap: 'skip', maxDiscoveryDepth: 1, allowSubdomains: true });
    expect(withSubdomains.pages).toEqual(
      sorted(['blog.site.test/', 'blog.site.test/post-a', 'blog.site.test/post-b', '/about']),
    );
    const without = await crawl({ url: seed, sitemap: 'skip', maxDiscoveryDepth: 1 });
    expect(without.pages).toEqual(['blog.site.test/', 'blog.site.test/post-a', 'blog.site.test/post-b']);
  });

  it('allowExternalLinks follows external links with a path, only from in-scope pages', async () => {
    const run = await crawl({
      url: '/',
      sitemap: 'skip',
      maxDiscoveryDepth: 2,
      allowExternalLinks: true,
      excludePaths: ['^/(calendar|slow|hop|away|products|blog|docs|report|canonical|landing)'],
    });
    // other.test/ is a bare homepage, blog.site.test/ too; github.com is social media; other.test/page-2 is only
    // linked from an external page.
    expect(run.pages).toEqual(sorted(['/', '/about', 'other.test/page']));
  });

  it('ignoreQueryParameters folds URLs that differ only by query', async () => {
    const keep = await crawl({ url: '/', sitemap: 'skip', includePaths: ['^/products'] });
    expect(keep.pages).toEqual(['/products?id=1&color=red', '/products?id=2']);
    const fold = await crawl({ url: '/', sitemap: 'skip', includePaths: ['^/products'], ignoreQueryParameters: true });
    expect(fold.pages).toEqual(['/products?id=1&color=red']);
  });

  it('deduplicateSimilarURLs: false keeps www, index.html and trailing-slash variants apart', async () => {
    const body = {
      url: '/',
      sitemap: 'skip' as const,
      maxDiscoveryDepth: 1,
      includePaths: ['^/(about|index\\.html)?$'],
    };
    const folded = await crawl(body);
    expect(folded.pages).toEqual(['/', '/about']);
    const apart = await crawl({ ...body, deduplicateSimilarURLs: false });
    expect(apart.pages).toEqual(sorted(['/', '/about', '/index.html', 'www.site.test/about']));
  });

  it('limit caps the pages, taking links in page order (item 24)', async () => {
    const run = await crawl({ url: '/', sitemap: 'skip', limit: 5 });
    expect(run.pages).toEqual(sorted(['/', '/about', '/docs', '/docs/a', '/docsearch']));
    expect(run.status.total).toBe(5);
  });
});

describe('crawl sitemaps and robots', () => {
  it('sitemap only: the seed and the sitemap URLs, no link discovery, all within map(sitemap only)', async () => {
    const run = await crawl({ url: '/', sitemap: 'only' });
    expect(run.pages).toEqual(
      sorted([
        '/',
        '/about',
        '/docs/a',
        '/docs/sitemap-only',
        '/only-in-sitemap-1',
        '/only-in-sitemap-2',
        'www.site.test/only-in-sitemap-3',
      ]),
    );
    const mapped = ok(await env.ck.map({ url: env.server.url('/'), sitemap: 'only' }));
    const mappedLabels = new Set(mapped.links.map((l) => env.server.label(l.url)));
    for (const page of run.pages) if (page !== '/') expect(mappedLabels).toContain(page.replace(/\/$/, ''));
  });

  it('sitemap only on a site without sitemaps is exactly the seed (item 41)', async () => {
    const run = await crawl({ url: env.server.url('/', 'blog.site.test'), sitemap: 'only' });
    expect(run.pages).toEqual(['blog.site.test/']);
  });

  it('limit 10 completes with pages for every sitemap mode (item 41)', async () => {
    for (const sitemap of ['include', 'skip', 'only'] as const) {
      const run = await crawl({ url: '/', sitemap, limit: 10 });
      expect(run.status.status).toBe('completed');
      expect(run.pages.length).toBeGreaterThan(0);
      expect(run.pages.length).toBeLessThanOrEqual(10);
    }
  });

  it('ignoreRobotsTxt crawls disallowed pages; by default they are listed as robotsBlocked', async () => {
    const blocked = await crawl({ url: '/', includePaths: ['^/private/'] });
    expect(blocked.pages).toEqual([]);
    expect(sorted(blocked.errors.robotsBlocked)).toEqual([
      env.server.url('/private/hidden'),
      env.server.url('/private/secret'),
    ]);
    const ignored = await crawl({ url: '/', includePaths: ['^/private/'], ignoreRobotsTxt: true });
    expect(ignored.pages).toEqual(['/private/hidden', '/private/secret']);
    expect(ignored.errors.robotsBlocked).toEqual([]);
  });

  it('spaces requests by the robots.txt Crawl-delay', async () => {
    const from = env.server.hits.length;
    await crawl({ url: '/docs', sitemap: 'skip' });
    expectSpaced(env.server.hits.slice(from), 4, 50);
  });

  it('delay spaces requests by that many seconds', async () => {
    const from = env.server.hits.length;
    const run = await crawl({ url: '/docs', sitemap: 'skip', delay: 0.3 });
    expect(run.pages).toHaveLength(4);
    expectSpaced(env.server.hits.slice(from), 4, 300);
  });
});

describe('crawl traps and redirects', () => {
  it('an endless calendar is bounded by limit', async () => {
    const run = await crawl({ url: '/calendar/2026-01', ...calendarOnly, limit: 10 });
    expect(run.pages).toHaveLength(10);
    expect(run.pages.every((p) => p.startsWith('/calendar/'))).toBe(true);
  });

  it('an endless calendar is bounded by maxDiscoveryDepth', async () => {
    const run = await crawl({ url: '/calendar/2026-01', ...calendarOnly, maxDiscoveryDepth: 2 });
    expect(run.pages).toEqual(
      ['/calendar/2025-11', '/calendar/2025-12', '/calendar/2026-01', '/calendar/2026-02', '/calendar/2026-03'].sort(),
    );
  });

  it('a seed redirected to another host re-bases the crawl there', async () => {
    const run = await crawl({ url: '/away', sitemap: 'skip' });
    expect(run.pages).toEqual(['other.test/landed']);
  });

  it('a seed with only one result warns about a narrow scope', async () => {
    const run = await crawl({ url: '/docsearch', sitemap: 'skip' });
    expect(run.pages).toEqual(['/docsearch']);
    expect(run.status.warning).toBe(
      `Only 1 result(s) found. For broader coverage, try crawling with crawlEntireDomain=true or start from a ` +
        `higher-level path like ${env.server.url('').replace(/\/$/, '')}`,
    );
  });
});

describe('crawl job control', () => {
  it('watch() yields each stored page, then ends', async () => {
    const started = ok(
      await env.ck.crawl({ url: env.server.url('/docs'), sitemap: 'skip', scrapeOptions: { maxAge: 0 } }),
    );
    const urls: string[] = [];
    for await (const doc of env.ck.watch(started.id)) urls.push(env.server.label(doc.metadata.url!));
    expect(urls.sort()).toEqual(['/docs', '/docs/a', '/docs/b', '/docs/c/deep']);
    const status = ok(await env.ck.getCrawlStatus(started.id));
    expect(status.status).toBe('completed');
    expect(status.next).toBeUndefined();
  });

  it('getActiveCrawls lists a running crawl with its options, then drops it', async () => {
    const started = ok(
      await env.ck.crawl({ url: env.server.url('/calendar/2030-01'), ...calendarOnly, limit: 6, delay: 0.2 }),
    );
    const active = ok(await env.ck.getActiveCrawls());
    const entry = active.crawls.find((c) => c.id === started.id);
    expect(entry).toBeDefined();
    expect(entry!.url).toBe(env.server.url('/calendar/2030-01'));
    expect(entry!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(entry!.options).toMatchObject({ limit: 6, delay: 0.2, sitemap: 'skip', crawlEntireDomain: true });
    ok(await env.ck.waitForJob(started.id));
    const after = ok(await env.ck.getActiveCrawls());
    expect(after.crawls.some((c) => c.id === started.id)).toBe(false);
  });

  it('cancel stops fetching at once and keeps what was scraped', async () => {
    const started = ok(
      await env.ck.crawl({
        url: env.server.url('/calendar/2040-01'),
        ...calendarOnly,
        delay: 0.1,
        scrapeOptions: { maxAge: 0 },
      }),
    );
    const seen: string[] = [];
    for await (const doc of env.ck.watch(started.id)) {
      seen.push(doc.metadata.url!);
      if (seen.length === 3) break;
    }
    expect(await env.ck.cancelCrawl(started.id)).toEqual({ status: 'cancelled' });
    const afterCancel = env.server.hits.length;
    const status = ok(await env.ck.getCrawlStatus(started.id));
    expect(status.status).toBe('cancelled');
    expect(status.data.length).toBeGreaterThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 400));
    // At most the page in flight when cancel came may still arrive.
    expect(env.server.hits.length - afterCancel).toBeLessThanOrEqual(1);
    const later = ok(await env.ck.getCrawlStatus(started.id));
    expect(later.data.map((d) => d.metadata.url)).toEqual(expect.arrayContaining(seen));
    expect(ok(await env.ck.getActiveCrawls()).crawls.some((c) => c.id === started.id)).toBe(false);
  });

  it('refuses to cancel a failed crawl, which stays failed', async () => {
    const failed = ok(await env.ck.crawl({ url: 'http://127.0.0.1:1/', limit: 1 }));
    expect(ok(await env.ck.waitForJob(failed.id)).status).toBe('failed');
    expect(await env.ck.cancelCrawl(failed.id)).toEqual({
      success: false,
      code: 'JOB_ALREADY_COMPLETED',
      error: 'Crawl has already failed',
    });
    expect(ok(await env.ck.getCrawlStatus(failed.id)).status).toBe('failed');
  });

  it('rejects malformed job ids and invalid patterns (items 42, 13.1)', async () => {
    const bad = await env.ck.getCrawlStatus('None');
    expect(bad).toMatchObject({ success: false, error: 'Invalid job ID format. Job ID must be a valid UUID.' });
    const regex = await env.ck.crawl({ url: env.server.url('/'), excludePaths: ['[unclosed'] });
    expect(regex.success).toBe(false);
    const unknown = await env.ck.cancelCrawl('00000000-0000-4000-8000-000000000000');
    expect(unknown).toMatchObject({ error: 'Job not found' });
  });
});
