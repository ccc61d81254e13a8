import { describe, expect, it } from 'vitest';

import { startFixtureServer } from '../../../../fixtures/server.ts';
import { failure, useHttpSite } from './__fixtures__/http-site.ts';
import { HttpEngine } from './http-engine.js';

const site = useHttpSite();

describe('HttpEngine: redirects', () => {
  it('follows a chain and records every hop', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/redirect/chain` });
    expect(result.status).toBe(200);
    expect(result.url).toBe(`${site.server.url}/articles/first-post.html`);
    expect(result.redirects).toEqual([`${site.server.url}/redirect/chain`, `${site.server.url}/redirect/once`]);
  });

  it('follows a 10-hop chain and resolves relative locations', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/redirect/hops/10` });
    expect(result.text).toContain('Arrived');
    expect(result.redirects).toHaveLength(10);
    const relative = await site.engine.fetch({ url: `${site.server.url}/http/redirect/relative` });
    expect(relative.url).toBe(`${site.server.url}/http/json`);
  });

  it('refuses more redirects than maxRedirects', async () => {
    const strict = new HttpEngine({ limits: { maxRedirects: 5 } });
    try {
      const ok = await strict.fetch({ url: `${site.server.url}/http/redirect/hops/5` });
      expect(ok.redirects).toHaveLength(5);
      const error = await failure(strict.fetch({ url: `${site.server.url}/http/redirect/hops/6` }));
      expect(error.code).toBe('SCRAPE_TOO_MANY_REDIRECTS');
    } finally {
      await strict.close();
    }
  });

  it('detects a redirect loop', async () => {
    const loop = await failure(site.engine.fetch({ url: `${site.server.url}/hostile/loop/a` }));
    expect(loop.code).toBe('SCRAPE_REDIRECT_LOOP');
    const self = await failure(site.engine.fetch({ url: `${site.server.url}/hostile/self-redirect` }));
    expect(self.code).toBe('SCRAPE_REDIRECT_LOOP');
  });

  it('turns a POST into a GET on 301, 302 and 303, and keeps it on 307 and 308', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const result = await site.engine.fetch({
        url: `${site.server.url}/http/redirect/status/${status}`,
        method: 'POST',
        body: 'payload',
        headers: { 'content-type': 'text/plain' },
      });
      const echo = JSON.parse(result.text!);
      const kept = status === 307 || status === 308;
      expect(echo.method, String(status)).toBe(kept ? 'POST' : 'GET');
      expect(echo.body, String(status)).toBe(kept ? 'payload' : '');
      expect(echo.headers['content-type'], String(status)).toBe(kept ? 'text/plain' : undefined);
    }
  });

  it('drops credentials when a redirect changes origin', async () => {
    const other = await startFixtureServer();
    try {
      const target = encodeURIComponent(`${other.url}/http/echo`);
      const result = await site.engine.fetch({
        url: `${site.server.url}/http/redirect/to?url=${target}`,
        headers: { authorization: 'Bearer secret', cookie: 'session=1', 'x-kept': 'yes' },
      });
      const echo = JSON.parse(result.text!);
      expect(echo.headers.authorization).toBeUndefined();
      expect(echo.headers.cookie).toBeUndefined();
      // another port of the host is another service: the caller's own headers stay behind too (sameHeaderSite)
      expect(echo.headers['x-kept']).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('keeps every header of the caller on a redirect within the origin', async () => {
    const target = encodeURIComponent(`${site.server.url}/http/echo`);
    const result = await site.engine.fetch({
      url: `${site.server.url}/http/redirect/to?url=${target}`,
      headers: { authorization: 'Bearer secret', 'x-kept': 'yes' },
    });
    const echo = JSON.parse(result.text!);
    expect(echo.headers).toMatchObject({ authorization: 'Bearer secret', 'x-kept': 'yes' });
  });

  it("drops the caller's own headers when a redirect changes host, as the browser does", async () => {
    const other = await startFixtureServer();
    try {
      const target = encodeURIComponent(`${other.url.replace('127.0.0.1', 'localhost')}/http/echo`);
      const result = await site.engine.fetch({
        url: `${site.server.url}/http/redirect/to?url=${target}`,
        headers: {
          'Private-Token': 'glpat-secret',
          'x-api-key': 'k',
          'user-agent': 'WikiBot/1.0',
          accept: 'text/html',
        },
      });
      const echo = JSON.parse(result.text!);
      // Before: a GitLab token or an API key went to whatever host the site redirected to.
      expect(echo.headers['private-token']).toBeUndefined();
      expect(echo.headers['x-api-key']).toBeUndefined();
      expect(echo.headers['user-agent']).toBe('WikiBot/1.0');
      expect(echo.headers.accept).toBe('text/html');
    } finally {
      await other.close();
    }
  });

  it('sends cookies set during the chain back on later hops (a cookie wall is not a loop)', async () => {
    const result = await site.engine.fetch({
      url: `${site.server.url}/http/redirect/cookie-wall`,
      headers: { cookie: 'mine=1' },
    });
    expect(result.status).toBe(200);
    // Foreign-domain and Secure-over-http cookies stay behind; the caller's own cookie goes along.
    expect(JSON.parse(result.text!)).toEqual({ cookie: 'mine=1; visited=yes' });
    expect(result.redirects).toEqual([`${site.server.url}/http/redirect/cookie-wall`]);
    // Nothing is kept between requests.
    const again = await site.engine.fetch({ url: `${site.server.url}/http/redirect/cookie-wall` });
    expect(again.redirects).toHaveLength(1);
  });

  it('returns a redirect status without Location as the result', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/redirect/no-location` });
    expect(result.status).toBe(302);
    expect(result.text).toContain('moved, but where?');
  });

  it('refuses a redirect to a non-web scheme', async () => {
    const error = await failure(
      site.engine.fetch({
        url: `${site.server.url}/hostile/redirect-to?url=${encodeURIComponent('file:///etc/passwd')}`,
      }),
    );
    expect(error.code).toBe('SCRAPE_UNSUPPORTED_REDIRECT');
    expect(error.message).toContain('redirected to file:///etc/passwd');
  });
});
