// A user's includePaths/excludePaths pattern runs in time linear in the URL's length: `(a+)+$` on a 2,000-character
// path answers at once instead of holding the process (on `serve`, every tenant's calls) for ever. Lookahead and
// backreferences, which no linear-time engine runs, are refused with a message that says what to write instead.

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt } from './cli-helpers.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { runBuiltChild } from './helpers/built-child.ts';

/** A path on which `(a+)+$` backtracks 2^2000 ways before it fails: a run of `a` followed by something else. */
const TRAP = `/${'a'.repeat(2000)}-b`;

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/'(_req, res) {
        sendPage(res, 'Home', `<a href="/aaa">Short</a> <a href="${TRAP}">Long</a>`);
      },
      '/aaa'(_req, res) {
        sendPage(res, 'Short', '<p>Matched by the pattern.</p>');
      },
      '/*'(_req, res) {
        sendPage(res, 'Other', '<p>Not matched.</p>');
      },
    }),
});

beforeAll(() => void ensureBuilt());

describe('path patterns', () => {
  it('run in linear time on a long URL: a crawl and a map with (a+)+$ answer', { timeout: 60_000 }, async () => {
    // Before: the crawl's first check of the long link never returned; the child is killed, the test fails.
    const { code, out, result } = await runBuiltChild<{ crawled: string[]; links: string[] }>(
      'pattern-redos-child.ts',
      [`${env.server.url}/`],
      { killAfterMs: 45_000 },
    );
    expect(result, out).not.toBeNull();
    // The seed is read for its links whatever the patterns say, and stored only when they admit it.
    expect(result!.crawled).toEqual(['/aaa']);
    expect(result!.links).toEqual(['/aaa']);
    expect(code).toBe(0);
  });

  it.each([
    ['(?!x)(a+)+$', /^"\(\?!x\)\(a\+\)\+\$" uses a lookahead .*none inside another.*excludePaths/],
    ['^/(a)\\1(b+)+', /^"\^\/\(a\)\\\\1\(b\+\)\+" uses a backreference/],
  ])('%s is refused with what to write instead', async (pattern, message) => {
    const crawl = await env.ck.crawl({ url: env.server.url, includePaths: [pattern] });
    expect(crawl.success).toBe(false);
    expect(crawl).toMatchObject({ code: 'BAD_REQUEST', error: expect.stringMatching(message) });
    const map = await env.ck.map({ url: env.server.url, excludePaths: [pattern] });
    expect(map).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringMatching(message) });
  });

  it('keep the JavaScript syntax users write: lookbehind, named groups, escaped slashes', async () => {
    // A lookahead as upstream takes it runs on RegExp (it cannot backtrack for long).
    for (const pattern of ['(?<=/)a{3}$', '^\\/(?<word>[a-z]{3})$', '^/(?!bbb)[a-z]{3}$']) {
      const started = await env.ck.crawl({ url: env.server.url, sitemap: 'skip', includePaths: [pattern] });
      if (!started.success) throw new Error(started.error);
      const status = await env.ck.waitForJob(started.id);
      if (!status.success) throw new Error(status.error);
      expect(
        status.data.map((d) => new URL(d.metadata.sourceURL).pathname),
        pattern,
      ).toEqual(['/aaa']);
    }
  });
});
