// A crawl of a wiki that sends a visitor without a session to its sign-in page: the seed redirects to
// `/login?next=%2F`, the crawl reads the sign-in page and what it links to, and ended `completed` without a word.
// Its status now says where the seed went and how to send a session; a crawl with the session says nothing of it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${title}: a page with enough text to be the main content.</p>${body}</main></body></html>`;

/** The wiki on 127.0.0.1 (its own sign-in page) and one on `localhost` whose sign-in is another host's (SSO). */
async function startWikis(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (url.pathname === '/robots.txt' || url.pathname.endsWith('.xml')) return void res.writeHead(404).end();
    if (url.pathname === '/login' || url.pathname === '/sso/login') {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Sign in', '<a href="/help">Help</a>'));
    }
    const session = (req.headers.cookie ?? '').includes('sid=ok');
    // A space whose session may not read `/space/private/…`: those pages send it to the sign-in page.
    if (session && url.pathname.startsWith('/space/private/')) {
      return void res.writeHead(302, { location: `/login?next=${encodeURIComponent(url.pathname)}` }).end();
    }
    if (session && url.pathname === '/space/') {
      const links = ['a', 'private/x', 'private/y'].map((p) => `<a href="/space/${p}">${p}</a>`).join(' ');
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Space', links));
    }
    if (session) {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(html(`Wiki ${url.pathname}`, ''));
    }
    const { port } = server.address() as AddressInfo;
    const next = encodeURIComponent(`http://${host}:${port}${url.pathname}`);
    const login = host === 'localhost' ? `http://127.0.0.1:${port}/sso/login?service=${next}` : `/login?next=%2F`;
    res.writeHead(302, { location: login }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a crawl whose seed redirects to a sign-in page', () => {
  const env = useFixtureEngine({ server: startWikis });

  const crawl = async (url: string, cookie?: string) => {
    const started = ok(
      await env.ck.crawl({ url, limit: 5, ...(cookie ? { scrapeOptions: { headers: { cookie } } } : {}) }),
    );
    return ok(await env.ck.waitForJob(started.id));
  };

  it("says so in the status's warning, with how to send a session", async () => {
    const { port } = env.server;
    const status = await crawl(`http://127.0.0.1:${port}/`);
    expect(status.status).toBe('completed');
    expect(status.data.map((d) => d.metadata.title)).toContain('Sign in');
    // Before: no warning at all.
    expect(status.warning).toContain(
      `The seed http://127.0.0.1:${port}/ redirected to http://127.0.0.1:${port}/login?next=%2F, a page that names ` +
        'the seed in its query: a sign-in page, most likely',
    );
    expect(status.warning).toContain('`scrapeOptions.headers` (a `Cookie` or `Authorization` header)');
  }, 30_000);

  it('on another host (SSO) too', async () => {
    const { port } = env.server;
    const status = await crawl(`http://localhost:${port}/`);
    expect(status.warning).toContain(`The seed http://localhost:${port}/ redirected to http://127.0.0.1:${port}/sso/`);
    expect(status.warning).toContain('a sign-in page, most likely');
  }, 30_000);

  it("tells a page that landed on the sign-in page in the page's warning, and the engine's warning event", async () => {
    const { port } = env.server;
    const told: string[] = [];
    const listen = (warning: { code: string; message: string }) => told.push(warning.code);
    env.ck.on('warning', listen);
    try {
      const scraped = await env.ck.scrape({ url: `http://localhost:${port}/docs/guide`, maxAge: 0 });
      if (!scraped.success) throw new Error(scraped.error);
      expect(scraped.data.metadata.title).toBe('Sign in');
      // Before: the sign-in page as the page, without a word.
      expect(scraped.data.warning).toContain(
        `The page http://localhost:${port}/docs/guide redirected to http://127.0.0.1:${port}/sso/login?service=`,
      );
      expect(scraped.data.warning).toContain('this document is the sign-in page');
      expect(told).toContain('SIGN_IN_REDIRECT');
    } finally {
      env.ck.off('warning', listen);
    }
  }, 30_000);

  it("records pages past the seed that land on the sign-in page as the crawl's errors, not its data", async () => {
    const { port } = env.server;
    const base = `http://127.0.0.1:${port}`;
    // The whole site is in scope (the sign-in page included): a redirect out of scope is a CRAWL_DENIAL already.
    const headers = { cookie: 'sid=ok' };
    const started = ok(
      await env.ck.crawl({ url: `${base}/space/`, crawlEntireDomain: true, scrapeOptions: { headers } }),
    );
    const status = ok(await env.ck.waitForJob(started.id));
    // Before: two documents titled "Sign in" (each under its own `?next=`), and the sign-in page's Help link crawled.
    expect(status.data.map((d) => d.metadata.title).sort()).toEqual(['Space', 'Wiki /space/a']);
    const errors = await env.ck.getCrawlErrors(started.id);
    if ('success' in errors) throw new Error(errors.error);
    expect(errors.errors.map((e) => [e.url, e.code]).sort()).toEqual([
      [`${base}/space/private/x`, 'CRAWL_SIGN_IN_REDIRECT'],
      [`${base}/space/private/y`, 'CRAWL_SIGN_IN_REDIRECT'],
    ]);
    expect(errors.errors[0]!.error).toContain(`Redirected to a sign-in page (${base}/login?next=%2Fspace%2Fprivate%2F`);
    expect(status.warning).toContain('2 page(s) redirected to a sign-in page, the first');
    expect(status.warning).toContain("they are in the crawl's errors, not its data");
  }, 30_000);

  it('says nothing of it when the crawl sends the session', async () => {
    const status = await crawl(`http://127.0.0.1:${env.server.port}/`, 'sid=ok');
    expect(status.data.map((d) => d.metadata.title)).toEqual(['Wiki /']);
    expect(status.warning ?? '').not.toContain('redirected');
  }, 30_000);
});
