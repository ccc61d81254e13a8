/**
 * A robots.txt that never answers: a crawl waits for it no longer than the engine's `robotsTimeoutMs` (or its own
 * `scrapeOptions.timeout`, when shorter), then goes on as if it allowed every page and says so in its status, with
 * the bound and the option that set it. Cancelling the crawl meanwhile ends the wait at once (in-process, and on a
 * Redis worker within its second's re-read of the job). A map waits as long.
 */
import type { IncomingMessage } from 'node:http';
import { once } from 'node:events';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { randomUUID } from 'node:crypto';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { runCli } from './cli-helpers.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

let site: FixtureServer;
const engines: Crawlkit[] = [];
/** The robots.txt requests the site holds, unanswered. */
const held: IncomingMessage[] = [];
let robotsAsked: () => void = () => {};

beforeAll(async () => {
  site = await startRouteSite({
    '/robots.txt': (req) => {
      held.push(req);
      robotsAsked();
    },
    '/': (_req, res) => sendPage(res, 'Home', '<a href="/a">A</a>'),
    '/a': (_req, res) => sendPage(res, 'A', '<p>Page A.</p>'),
  });
});

afterAll(async () => {
  await Promise.all(engines.map((ck) => ck.close()));
  for (const req of held) req.socket.destroy();
  await site.close();
});

function engine(options: ConstructorParameters<typeof Crawlkit>[0] = {}): Crawlkit {
  const ck = new Crawlkit({ store: 'memory', engine: 'http', ...options });
  engines.push(ck);
  return ck;
}

async function crawlTimed(ck: Crawlkit, timeout?: number) {
  const started = await ck.crawl({
    url: `${site.url}/`,
    sitemap: 'skip',
    ...(timeout !== undefined ? { scrapeOptions: { timeout } } : {}),
  });
  if (!started.success) throw new Error(started.error);
  const at = performance.now();
  let firstPageMs: number | undefined;
  ck.on('page', () => (firstPageMs ??= performance.now() - at));
  const done = await ck.waitForJob(started.id);
  if (!done.success) throw new Error(done.error);
  return { done, firstPageMs: firstPageMs! };
}

describe('a crawl whose robots.txt never answers', () => {
  it("waits the engine's robotsTimeoutMs, then crawls every page and says why in its warning", async () => {
    const { done, firstPageMs } = await crawlTimed(engine({ robotsTimeoutMs: 600 }));
    expect(done.data).toHaveLength(2);
    expect(firstPageMs).toBeGreaterThanOrEqual(550);
    expect(firstPageMs).toBeLessThan(8_000);
    expect(done.warning).toBe(
      `${site.url}/robots.txt could not be read (no answer within 600 ms, the engine's \`robotsTimeoutMs\`): the ` +
        'crawl went on as if it allowed every page, as the hosted service does.',
    );
  });

  it("waits no longer than the crawl's own scrapeOptions.timeout, when shorter", async () => {
    const { done } = await crawlTimed(engine(), 700);
    expect(done.data).toHaveLength(2);
    expect(done.warning).toMatch(/could not be read \(no answer within 700 ms, the crawl's `scrapeOptions.timeout`\)/);
  });

  it('holds a map no longer than robotsTimeoutMs either', async () => {
    const at = performance.now();
    const mapped = await engine({ robotsTimeoutMs: 600 }).map({ url: `${site.url}/` });
    if (!mapped.success) throw new Error(mapped.error);
    expect(mapped.links.map((l) => l.url).sort()).toEqual([site.url, `${site.url}/a`]);
    expect(performance.now() - at).toBeLessThan(8_000);
    expect(mapped.warning).toBe(
      `${site.url}/robots.txt could not be read (no answer within 600 ms, the engine's \`robotsTimeoutMs\`): the ` +
        'map went on without the sitemaps it may name.',
    );
  });

  it('takes the bound from --robots-timeout on the command line, and its warning names the flag', async () => {
    const store = mkdtempSync(join(tmpdir(), 'ck-robots-hang-'));
    try {
      const args = ['crawl', `${site.url}/`, '--sitemap', 'skip', '--engine', 'http', '--robots-timeout', '600'];
      const { code, stdout: out, stderr: err } = await runCli([...args, '--store', store], { cwd: store });
      expect(code, err).toBe(0);
      expect(out + err).toContain("no answer within 600 ms, the engine's `robotsTimeoutMs` (--robots-timeout)");
    } finally {
      rmSync(store, { recursive: true, force: true });
    }
  });

  /**
   * Starts a crawl on `client`, cancels it once its robots.txt is asked for, and waits until that request is dropped:
   * the time from the cancel until then, and `client` to read the crawl with.
   */
  async function cancelWhileRobotsHangs(client: Crawlkit, after: () => Promise<void> = () => Promise.resolve()) {
    const asked = new Promise<void>((resolve) => (robotsAsked = resolve));
    const started = await client.crawl({ url: `${site.url}/`, sitemap: 'skip' });
    if (!started.success) throw new Error(started.error);
    await asked;
    const closed = once(held.at(-1)!.socket, 'close');
    const at = performance.now();
    expect(await client.cancelCrawl(started.id)).toMatchObject({ status: 'cancelled' });
    await closed;
    await after();
    const elapsedMs = performance.now() - at;
    expect(await client.getCrawlStatus(started.id)).toMatchObject({ status: 'cancelled', completed: 0 });
    return elapsedMs;
  }

  it('ends the wait at once when the crawl is cancelled', async () => {
    // the robots.txt request was dropped, not left to run out its 10 s
    expect(await cancelWhileRobotsHangs(engine())).toBeLessThan(2_000);
  });

  it.skipIf(!testRedisUrl)('ends the wait at once when the crawl is cancelled, on a Redis worker too', async () => {
    const prefix = `ck-robots-hang-${randomUUID()}`;
    const [client, worker] = [0, 1].map(() => {
      const ck = new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix }), engine: 'http' });
      engines.push(ck);
      return ck;
    }) as [Crawlkit, Crawlkit];
    await worker.startWorker();
    // The worker saw the cancel (within its second's re-read of the job) and dropped robots.txt, not its 10 s; and
    // its close did not wait for it either.
    expect(await cancelWhileRobotsHangs(client, () => worker.close())).toBeLessThan(4_000);
  });
});
