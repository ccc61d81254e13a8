// A phpBB board that puts a new session id in every link (`?sid=<32 hex digits>`, as phpBB does for a visitor
// without its cookie, and vBulletin with `?s=`): a crawl reads each page once, not once per link to it, and a weekly
// scrape with change tracking reads an unchanged topic page `same`.
import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

/** Topic → its number of pages (20 posts a page). */
const TOPICS: Record<string, number> = { '1': 3, '2': 1 };

function startBoard(): Promise<FixtureServer> {
  // A session a response: each link the board writes carries its own.
  const sid = () => `sid=${randomBytes(16).toString('hex')}`;
  const profile = () => `<a href="./memberlist.php?mode=viewprofile&u=2&${sid()}">alice</a>`;
  return startRouteSite({
    '/robots.txt': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\n'),
    '/index.php': (_req, res) => sendPage(res, 'Board index', `<a href="./viewforum.php?f=1&${sid()}">Help</a>`),
    '/viewforum.php': (_req, res) =>
      sendPage(
        res,
        'Help',
        Object.keys(TOPICS)
          .map((t) => `<a href="./viewtopic.php?f=1&t=${t}&${sid()}">Topic ${t}</a> ${profile()}`)
          .join('<br>'),
      ),
    '/viewtopic.php'(_req, res, ctx) {
      const t = ctx.url.searchParams.get('t') ?? '';
      const start = Number(ctx.url.searchParams.get('start') ?? '0');
      // phpBB links a topic's first page without `start`.
      const pages = Array.from({ length: TOPICS[t] ?? 0 }, (_, i) => i * 20);
      const pagination = pages.map(
        (s, i) => `<a href="./viewtopic.php?f=1&t=${t}${s ? `&start=${s}` : ''}&${sid()}">${i + 1}</a>`,
      );
      sendPage(
        res,
        `Topic ${t}, posts from ${start + 1}`,
        `<p>Post ${start + 1} by ${profile()}: the answer.</p><div class="pagination">${pagination.join(' ')}</div>` +
          `<a href="./index.php?${sid()}">Board index</a>`,
      );
    },
    '/memberlist.php': (_req, res) => sendPage(res, 'alice', '<p>Joined 2015, 301 posts.</p>'),
  });
}

const env = useFixtureEngine({ server: startBoard });

describe('a board with a session id in every link', () => {
  it('is crawled one page a URL, the session ids aside', async () => {
    const started = ok(
      await env.ck.crawl({ url: `${env.server.url}/index.php`, sitemap: 'skip', scrapeOptions: { maxAge: 0 } }),
    );
    const status = ok(await env.ck.waitForJob(started.id));
    const pages = status.data.map((d) => {
      const at = new URL(d.metadata.sourceURL);
      at.searchParams.delete('sid');
      return at.pathname + at.search;
    });
    expect(pages.sort()).toEqual([
      '/index.php',
      '/memberlist.php?mode=viewprofile&u=2',
      '/viewforum.php?f=1',
      '/viewtopic.php?f=1&t=1',
      '/viewtopic.php?f=1&t=1&start=20',
      '/viewtopic.php?f=1&t=1&start=40',
      '/viewtopic.php?f=1&t=2',
    ]);
    expect(status.total).toBe(status.data.length);
  }, 60_000);

  it('reads `same` to change tracking when only the session ids of its links changed', async () => {
    const body = {
      url: `${env.server.url}/viewtopic.php?t=1&start=20`,
      formats: ['markdown' as const, { type: 'changeTracking' as const, modes: ['git-diff' as const] }],
      maxAge: 0,
    };
    const first = ok(await env.ck.scrape(body)).data;
    const second = ok(await env.ck.scrape(body)).data;
    expect(first.changeTracking?.changeStatus).toBe('new');
    expect(second.markdown).not.toBe(first.markdown);
    expect(second.changeTracking?.changeStatus).toBe('same');
  }, 60_000);
});
