/**
 * A crawl whose `includePaths` keep out its own listing's pages says so (L2 of docs/qa-job-board-day.md): a job board
 * at `/jobs`, its postings at `/jobs/N`, its second page at `/jobs?page=2`. With `includePaths: ['/jobs/.*']` the
 * crawl read the first page's postings and stopped, "completed", without a word: the patterns see the path `/jobs`
 * of the next page, which they refuse. Its status now names that link and the fix; a crawl cut by its limit, or one
 * that met no such link, says nothing of it.
 */
import { describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

const SENTENCE = "Links to the seed's own path with another query were refused by `includePaths`/`excludePaths`";

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/jobs': (_req, res, ctx) => {
        const page = Number(ctx.url.searchParams.get('page') ?? 1);
        const postings = [1, 2].map((i) => (page - 1) * 2 + i);
        const next = page < 2 ? '<a href="/jobs?page=2">Next page</a>' : '';
        const links = postings.map((n) => `<li><a href="/jobs/${n}">Engineer ${n}</a></li>`).join('');
        sendPage(res, `Open roles, page ${page}`, `<ul>${links}</ul>${next}`);
      },
      '/jobs/*': (_req, res, ctx) =>
        sendPage(res, `Engineer ${ctx.url.pathname.slice(6)}`, '<p>Build and run our services.</p>'),
      '/team': (_req, res) => sendPage(res, 'Team', '<a href="/team/ana">Ana</a>'),
      '/team/ana': (_req, res) => sendPage(res, 'Ana', '<p>Ana runs the platform team.</p>'),
    }),
});

async function crawl(path: string, options: { limit?: number; includePaths: string[]; regexOnFullURL?: boolean }) {
  const started = ok(
    await env.ck.crawl({ url: `${env.server.url}${path}`, sitemap: 'skip', ignoreRobotsTxt: true, ...options }),
  );
  const status = ok(await env.ck.waitForJob(started.id));
  const paths = status.data.map((d) => new URL(d.metadata.sourceURL).pathname + new URL(d.metadata.sourceURL).search);
  return { status, paths: paths.sort() };
}

describe("a crawl whose patterns refuse its seed's own path with another query", () => {
  it('names the refused link and the fix when it ended below its limit', async () => {
    const { status, paths } = await crawl('/jobs', { limit: 20, includePaths: ['/jobs/.*'] });
    expect(status.status).toBe('completed');
    expect(paths).toEqual(['/jobs/1', '/jobs/2']);
    // Before: no warning at all.
    expect(status.warning).toBe(
      `${SENTENCE}, such as ${env.server.url}/jobs?page=2 (the listing's next pages or filters), and the crawl ended ` +
        'below its limit: the pages they list were not read. To follow them, set `regexOnFullURL: true` with a ' +
        'pattern that matches its query (the patterns then see the whole URL), or add a pattern that matches the ' +
        "seed's path (`^/jobs$`) to `includePaths`.",
    );
  });

  it('follows them with the fix it names, and then says nothing of it', async () => {
    const { status, paths } = await crawl('/jobs', { limit: 20, includePaths: ['/jobs/.*', '^/jobs$'] });
    expect(paths).toEqual(['/jobs', '/jobs/1', '/jobs/2', '/jobs/3', '/jobs/4', '/jobs?page=2']);
    expect(status.warning ?? '').not.toContain(SENTENCE);
  });

  it('says nothing of it when the crawl reached its limit', async () => {
    const { status } = await crawl('/jobs', { limit: 2, includePaths: ['/jobs/.*'] });
    expect(status.warning).toContain('The crawl reached its limit of 2 page(s)');
    expect(status.warning).not.toContain(SENTENCE);
  });

  it('says nothing of it when no link to the seed path was refused', async () => {
    const { status, paths } = await crawl('/team', { limit: 20, includePaths: ['/team/.*'] });
    expect(paths).toEqual(['/team/ana']);
    expect(status.warning ?? '').not.toContain(SENTENCE);
  });
});
