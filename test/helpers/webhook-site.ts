/**
 * The site and engine the webhook tests share (webhooks.test.ts, webhook-restarts.test.ts): the slow pages of
 * `slowRoutes()` on 127.0.0.1 and an HTTP-only engine that signs with `SECRET` and retries fast. Builds the workspace
 * first: the kill -9 case's child runs on it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import { ensureBuilt } from '../cli-helpers.ts';
import { slowRoutes } from '../helpers-batch.ts';

export const SECRET = 'whsec-test';

/** What `useWebhookSite` starts before the file's tests. */
export interface WebhookSite {
  server: FixtureServer;
  ck: Crawlkit;
}

/**
 * Registers the file's `beforeAll`/`afterAll` that start the site and the engine (handed to `started`) and close
 * them; returns the slow routes, whose `stats` the tests read.
 */
export function useWebhookSite(started: (site: WebhookSite) => void): ReturnType<typeof slowRoutes> {
  const slow = slowRoutes();
  let site: WebhookSite | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    ensureBuilt();
    const server = await startFixtureServer({ routes: slow.routes });
    dir = mkdtempSync(join(tmpdir(), 'ck-webhooks-'));
    const ck = new Crawlkit({
      storeDir: dir,
      engine: 'http',
      webhooks: { secret: SECRET, timeoutMs: 2000, retryDelayMs: 50, maxAttempts: 4 },
    });
    site = { server, ck };
    started(site);
  });

  afterAll(async () => {
    await site?.ck.close();
    await site?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  return slow;
}
