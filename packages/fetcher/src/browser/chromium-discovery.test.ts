import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { Fetcher, resolveChromiumPath } from '../index.js';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

const url = (path: string) => server.url + path;

describe('Chromium discovery', () => {
  it('names the fix when no Chromium is found', () => {
    expect(() => resolveChromiumPath('/nonexistent/chromium')).toThrow(/apt-get install chromium/);
    expect(() => resolveChromiumPath(undefined, { CRAWLKIT_CHROMIUM: '/nonexistent/chrome' })).toThrow(
      expect.objectContaining({ code: 'BROWSER_NOT_FOUND', message: expect.stringContaining('CRAWLKIT_CHROMIUM') }),
    );
    const error = (() => {
      try {
        resolveChromiumPath(undefined, { PATH: '/nonexistent' });
      } catch (e) {
        return e as Error;
      }
    })();
    // Only meaningful where no Chromium sits in the absolute default locations.
    if (error) expect(error.message).toMatch(/apt-get install chromium.*CRAWLKIT_CHROMIUM/);
  });

  it('takes $CRAWLKIT_CHROMIUM, then the default locations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlkit-fake-chrome-'));
    try {
      const fake = join(dir, 'chrome');
      writeFileSync(fake, '#!/bin/sh\nexit 1\n');
      chmodSync(fake, 0o755);
      expect(resolveChromiumPath(undefined, { CRAWLKIT_CHROMIUM: fake })).toBe(fake);
      expect(resolveChromiumPath(fake, { CRAWLKIT_CHROMIUM: '/nonexistent' })).toBe(fake);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Debian's /usr/bin/chromium is a launcher script: the binary it execs is launched (chromium-path.test.ts).
    expect(resolveChromiumPath(undefined, { PATH: '' })).toBe('/usr/lib/chromium/chromium');
  });

  it('falls back to HTTP when the page wants JavaScript but no browser can start, and fails when the options need one', async () => {
    const fetcher = new Fetcher({ browser: { executablePath: '/nonexistent/chromium' } });
    try {
      const page = await fetcher.fetch({ url: url('/js/rendered.html') });
      expect(page).toMatchObject({ engine: 'http', engineReason: 'js-required:script-only+browser-unavailable' });
      await expect(fetcher.fetch({ url: url('/js/rendered.html'), screenshot: {} })).rejects.toMatchObject({
        code: 'BROWSER_NOT_FOUND',
      });
    } finally {
      await fetcher.close();
    }
  });

  it('remembers a Chromium that does not start: pages go over HTTP at once, a page that needs it is told why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlkit-fake-chrome-'));
    const fake = join(dir, 'chrome');
    const starts = join(dir, 'starts');
    // Each launch also runs `--version` to learn why: only the launches are counted.
    writeFileSync(
      fake,
      `#!/bin/sh\ncase "$1" in --version) ;; *) echo x >> ${starts} ;; esac\necho "no display" >&2\nexit 3\n`,
    );
    chmodSync(fake, 0o755);
    const launches = () => (existsSync(starts) ? readFileSync(starts, 'utf8').split('\n').length - 1 : 0);
    const fetcher = new Fetcher({ browser: { executablePath: fake, launchTimeoutMs: 5_000 } });
    try {
      for (let i = 0; i < 5; i++) {
        const page = await fetcher.fetch({ url: url('/js/rendered.html') });
        expect(page).toMatchObject({ engine: 'http', engineReason: 'js-required:script-only+browser-unavailable' });
      }
      expect(launches()).toBe(1);
      const failed = fetcher.fetch({ url: url('/js/rendered.html'), engine: 'browser' });
      await expect(failed).rejects.toMatchObject({ code: 'BROWSER_LAUNCH_FAILED' });
      await expect(failed).rejects.toThrow(`\`${fake} --version\` fails (exit code 3): no display.`);
      expect(launches()).toBe(1);
      expect(fetcher.browserStats).toMatchObject({ launches: 0, launchFailures: 1 });
    } finally {
      await fetcher.close();
    }
    // Once `launchRetryMs` is over, the next page tries again.
    const retrying = new Fetcher({ browser: { executablePath: fake, launchTimeoutMs: 5_000, launchRetryMs: 1 } });
    try {
      for (let i = 0; i < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        await expect(retrying.fetch({ url: url('/js/rendered.html'), engine: 'browser' })).rejects.toMatchObject({
          code: 'BROWSER_LAUNCH_FAILED',
        });
      }
      expect(launches()).toBe(3);
    } finally {
      await retrying.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives up a Chromium that hangs at start after launchTimeoutMs, and kills it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlkit-fake-chrome-'));
    const fake = join(dir, 'chrome');
    // Holds the pipe and answers nothing; `--version` works, so nothing else is wrong with it.
    writeFileSync(fake, '#!/bin/sh\ncase "$1" in --version) echo "Chromium 1" ; exit 0 ;; esac\nsleep 30\n');
    chmodSync(fake, 0o755);
    const fetcher = new Fetcher({ browser: { executablePath: fake, launchTimeoutMs: 500 } });
    try {
      const started = performance.now();
      const failed = fetcher.fetch({ url: url('/js/rendered.html'), engine: 'browser' });
      // Before: the launch waited for the fake to exit (30 s), puppeteer's `timeout` unused over a pipe.
      await expect(failed).rejects.toMatchObject({ code: 'BROWSER_LAUNCH_FAILED' });
      await expect(failed).rejects.toThrow('did not answer within 500 ms (browser.launchTimeoutMs)');
      expect(performance.now() - started).toBeLessThan(10_000);
      const left = execFileSync('ps', ['-eo', 'args'])
        .toString()
        .split('\n')
        .filter((line) => line.includes(fake));
      expect(left).toEqual([]);
    } finally {
      await fetcher.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);

  it('reports a Chromium that does not start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlkit-fake-chrome-'));
    const fake = join(dir, 'chrome');
    writeFileSync(fake, '#!/bin/sh\necho "no display" >&2\nexit 3\n');
    chmodSync(fake, 0o755);
    const fetcher = new Fetcher({ browser: { executablePath: fake, launchTimeoutMs: 5_000 } });
    try {
      const failed = fetcher.fetch({ url: url('/js/rendered.html'), engine: 'browser' });
      await expect(failed).rejects.toMatchObject({ code: 'BROWSER_LAUNCH_FAILED' });
      // What Chromium said, not puppeteer's "Target closed" (a missing library is told so).
      await expect(failed).rejects.toThrow(`\`${fake} --version\` fails (exit code 3): no display.`);
    } finally {
      await fetcher.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
