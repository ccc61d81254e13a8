/**
 * Header values a job needs to resume (request cookies and `Authorization`, webhook headers) are stored encrypted:
 * never in the bytes of the SQLite files or of Redis, yet sent on every request, after a resume too. The store's
 * files are 0600 (issue 23 §5). So is the webhook's URL, whose path often is the token (security review, second
 * day's Left): before, it was kept as given.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, verifyWebhook, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRedisStore, redis } from '@crawlkit/redis';
import { ok } from './helpers/job-backends.ts';
import { testRedis } from './setup/redis.ts';

const redisUrl = await testRedis();

const AUTH = `Bearer auth-${randomUUID()}`;
const COOKIE = `sid=cookie-${randomUUID()}`;
const HOOK_TOKEN = `hook-${randomUUID()}`;
/** The part of the webhook URL that is a token, as in a chat service's incoming-webhook URL. */
const HOOK_PATH = `T0${randomUUID()}`;
/** The signing secret of the engine that starts the crawl, which the crawl keeps (sealed) for its events. */
const SIGNING = `whsec-${randomUUID()}`;
const SECRETS = [AUTH, COOKIE, HOOK_TOKEN, HOOK_PATH, SIGNING].map((s) => s.replace(/^Bearer |^sid=/, ''));
const PAGES = 6;

interface Site {
  url: string;
  /** Headers of every page request. */
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A chain of slow pages (each links to the next), so that a crawl can be stopped midway. */
async function startSite(): Promise<Site> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0) return void res.writeHead(404).end();
    seen.push(req.headers);
    setTimeout(() => {
      const next = n + 1 < PAGES ? `<a href="/p/${n + 1}">next</a>` : '';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><main><h1>Page ${n}</h1><p>A page behind a login cookie.</p>${next}</main></body></html>`);
    }, 120);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Receiver {
  url: string;
  tokens: (string | undefined)[];
  /** Whether each event verified with `SIGNING`. */
  signed: boolean[];
  close(): Promise<void>;
}

async function webhookReceiver(): Promise<Receiver> {
  const tokens: (string | undefined)[] = [];
  const signed: boolean[] = [];
  const server = createServer((req, res) => {
    if (req.url !== `/hooks/${HOOK_PATH}`) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      tokens.push(req.headers['x-hook-token'] as string | undefined);
      signed.push(verifyWebhook(Buffer.concat(chunks), req.headers, SIGNING));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${HOOK_PATH}`,
    tokens,
    signed,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function crawlBody(site: Site, hook: Receiver) {
  return {
    url: `${site.url}/p/0`,
    limit: PAGES,
    crawlEntireDomain: true,
    maxConcurrency: 1,
    scrapeOptions: { headers: { Authorization: AUTH, Cookie: COOKIE } },
    webhook: { url: hook.url, headers: { 'x-hook-token': HOOK_TOKEN }, events: ['completed' as const] },
  };
}

/** Every byte of the store's files that exist. */
function storeBytes(dir: string): string {
  return ['crawlkit.db', 'crawlkit.db-wal', 'crawlkit.db-shm']
    .map((file) => join(dir, file))
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path).toString('latin1'))
    .join('');
}

let site: Site;
let hook: Receiver;
let root: string;

beforeAll(async () => {
  site = await startSite();
  hook = await webhookReceiver();
  root = mkdtempSync(join(tmpdir(), 'ck-at-rest-'));
});
afterAll(async () => {
  await site.close();
  await hook.close();
  rmSync(root, { recursive: true, force: true });
});

describe('header values at rest, embedded store', () => {
  it('are encrypted in the SQLite files (0600, key beside them) and still sent after a resume', async () => {
    const dir = join(root, 'sqlite');
    site.seen.length = 0;
    const first = new Crawlkit({ storeDir: dir, engine: 'http', webhooks: { secret: SIGNING } });
    const started = ok(await first.crawl(crawlBody(site, hook)));
    await until(() => site.seen.length >= 2);
    // The files while the engine runs (the WAL holds the newest rows), then after a stop midway.
    for (const secret of SECRETS) expect(storeBytes(dir)).not.toContain(secret);
    await first.close();
    for (const secret of SECRETS) expect(storeBytes(dir)).not.toContain(secret);
    expect(site.seen.length).toBeLessThan(PAGES);

    const second = new Crawlkit({ storeDir: dir, engine: 'http', resumeJobs: true });
    try {
      const done = ok(await second.waitForJob(started.id));
      expect(done.status).toBe('completed');
      expect(done.completed).toBe(PAGES);
      await until(() => hook.tokens.length > 0);
      for (const secret of SECRETS) expect(storeBytes(dir)).not.toContain(secret);
    } finally {
      await second.close();
    }
    // Every request, before and after the resume, carried the headers (the page in flight at the stop is fetched
    // again); the webhook got its own.
    expect(site.seen.length).toBeGreaterThanOrEqual(PAGES);
    for (const headers of site.seen) expect(headers).toMatchObject({ authorization: AUTH, cookie: COOKIE });
    expect(hook.tokens).toEqual([HOOK_TOKEN]);
    // Sent by the second engine, which has no secret, signed with the one the crawl was started with.
    expect(hook.signed).toEqual([true]);
    for (const secret of SECRETS) expect(storeBytes(dir)).not.toContain(secret);
    for (const file of ['crawlkit.db', 'secret.key']) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
  });

  it('with persistSecrets: false, are readable by the engine that started the job only', async () => {
    const dir = join(root, 'memory-only');
    site.seen.length = 0;
    const first = new Crawlkit({ storeDir: dir, engine: 'http', persistSecrets: false });
    const started = ok(await first.crawl(crawlBody(site, hook)));
    await until(() => site.seen.length >= 2);
    await first.close();
    // The webhook's URL is kept as given, so that the job's events still reach it after a restart.
    for (const secret of SECRETS.filter((s) => s !== HOOK_PATH)) expect(storeBytes(dir)).not.toContain(secret);
    expect(storeBytes(dir)).toContain(HOOK_PATH);
    expect(existsSync(join(dir, 'secret.key'))).toBe(false);
    for (const headers of site.seen) expect(headers).toMatchObject({ authorization: AUTH, cookie: COOKIE });

    const second = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const resumed = (await second.resumeJob(started.id)) as ErrorResponse;
      expect(resumed).toMatchObject({ success: false, code: 'STORE_SECRET_UNREADABLE' });
      expect(resumed.error).toContain('persistSecrets: false');
    } finally {
      await second.close();
    }
  });
});

describe.skipIf(!redisUrl)('header values at rest, Redis', () => {
  const prefix = `ck-at-rest-${randomUUID()}`;
  const key = randomBytes(32).toString('base64');

  /** Every value stored under the test's prefix, as text. */
  async function redisContents(under = prefix): Promise<string> {
    const store = await createRedisStore({ url: redisUrl!, prefix: 'unused' });
    const client = store.client;
    try {
      const parts: string[] = [];
      for (const name of await client.keys(`${under}:*`)) {
        const type = await client.type(name);
        const value: unknown =
          type === 'string'
            ? await client.get(name)
            : type === 'hash'
              ? await client.hgetall(name)
              : type === 'list'
                ? await client.lrange(name, 0, -1)
                : type === 'set'
                  ? await client.smembers(name)
                  : type === 'zset'
                    ? await client.zrange(name, '0', '-1')
                    : type === 'stream'
                      ? await client.xrange(name, '-', '+')
                      : type;
        parts.push(name, JSON.stringify(value));
      }
      return parts.join('\n');
    } finally {
      await store.close();
    }
  }

  it('are refused without a key shared by the cluster, never stored in plaintext', async () => {
    const submitter = new Crawlkit({
      backend: redis({ url: redisUrl!, prefix: `${prefix}-nokey` }),
      engine: 'http',
      webhooks: { secret: SIGNING },
    });
    try {
      const refused = await submitter.crawl(crawlBody(site, hook));
      expect(refused).toMatchObject({ success: false, code: 'STORE_SECRET_KEY_MISSING' });
      expect((refused as ErrorResponse).error).toContain('CRAWLKIT_SECRET_KEY');
      // A job without header values needs no key, nor does its webhook secret (not kept then: the sender's signs).
      ok(await submitter.crawl({ url: `${site.url}/p/0`, limit: 1, webhook: { url: hook.url, events: ['started'] } }));
      const stored = await redisContents(`${prefix}-nokey`);
      expect(stored).not.toContain(SIGNING);
      // Its webhook's URL is kept as given, as there is no key to seal it with.
      expect(stored).toContain(HOOK_PATH);
    } finally {
      await submitter.close();
    }
  });

  it('are encrypted in Redis with the shared key and sent by a worker holding it', async () => {
    site.seen.length = 0;
    hook.tokens.length = 0;
    hook.signed.length = 0;
    const backend = () => redis({ url: redisUrl!, prefix, secretKey: key });
    const submitter = new Crawlkit({ backend: backend(), engine: 'http', webhooks: { secret: SIGNING } });
    const worker = new Crawlkit({ backend: backend(), engine: 'http' });
    try {
      await worker.startWorker();
      const started = ok(await submitter.crawl(crawlBody(site, hook)));
      const done = ok(await submitter.waitForJob(started.id));
      expect(done.completed).toBe(PAGES);
      await until(() => hook.tokens.length > 0);
      const stored = await redisContents();
      expect(stored).toContain(started.id);
      for (const secret of SECRETS) expect(stored).not.toContain(secret);
    } finally {
      await submitter.close();
      await worker.close();
    }
    expect(site.seen).toHaveLength(PAGES);
    for (const headers of site.seen) expect(headers).toMatchObject({ authorization: AUTH, cookie: COOKIE });
    expect(hook.tokens).toEqual([HOOK_TOKEN]);
    expect(hook.signed).toEqual([true]);
  });

  it('cannot be read by a worker with another key, which says so', async () => {
    const submitter = new Crawlkit({ backend: redis({ url: redisUrl!, prefix: `${prefix}-other`, secretKey: key }) });
    const otherKey = randomBytes(32).toString('base64');
    const worker = new Crawlkit({ backend: redis({ url: redisUrl!, prefix: `${prefix}-other`, secretKey: otherKey }) });
    const errors: string[] = [];
    worker.on('error', (event) => errors.push(`${event.error.code}: ${event.error.error}`));
    try {
      await worker.startWorker();
      ok(await submitter.crawl(crawlBody(site, hook)));
      await until(() => errors.length > 0);
      expect(errors[0]).toContain('STORE_SECRET_UNREADABLE');
      expect(errors[0]).toContain('another key');
    } finally {
      await worker.close();
      await submitter.close();
    }
  });
});
