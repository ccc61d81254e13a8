/**
 * With `--redis`, the webhook outbox has one leader, which may be a `crawlkit worker`: a process with no surface of
 * its own, whose `webhooks.optionNames` are the engine's. A job records the words of the surface that started it
 * (`StoredJob.optionNames`), and whichever process sends its events uses them. Here a worker (started first, so it
 * leads the outbox) runs a crawl submitted through `crawlkit serve`, with a 1 ms extraction budget and a 200-page PDF
 * (as test/operator-words-surfaces.test.ts): the receiver's `crawl.page` event names serve's flag.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { writePdf } from '../packages/extractor/src/pdf/__fixtures__/write-pdf.ts';
import type { FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, startCli } from './cli-helpers.ts';
import { startReceiver, until, type Receiver } from './helpers-batch.ts';
import { startRouteSite } from './helpers/route-site.ts';
import { serveCli, type ServeCli } from './helpers/serve-cli.ts';
import { testRedis } from './setup/redis.ts';

const SERVE_CUT =
  "raise the server's extraction budget (`crawlkit serve --extraction-budget`: its operator's setting, which no " +
  'request changes) to read the rest.';

const redisUrl = await testRedis();
const prefix = `ck-hook-words-${randomUUID()}`;
const env = { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' };
let dir: string;
let site: FixtureServer;
let hook: Receiver;
let worker: ReturnType<typeof startCli> | undefined;
let workerOutput = '';
let serve: ServeCli | undefined;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-hook-words-'));
  const paragraph = { text: 'A paragraph of a long manual, one of several on each of its many pages. '.repeat(6) };
  const manual = await writePdf(Array.from({ length: 200 }, () => ({ blocks: [paragraph, paragraph, paragraph] })));
  site = await startRouteSite({
    '/manual.pdf': (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end(manual),
  });
  hook = await startReceiver();
  if (!redisUrl) return;
  const redis = ['--redis', redisUrl, '--redis-prefix', prefix];
  // First on the deployment: it takes the outbox's lead, and keeps it while it runs.
  worker = startCli(['worker', '--engine', 'http', ...redis, '--extraction-budget', '1'], { cwd: dir, env });
  await new Promise<void>((resolve, reject) => {
    worker!.stderr!.on('data', (chunk: string) => {
      workerOutput += chunk;
      if (workerOutput.includes('taking tasks from')) resolve();
    });
    worker!.once('exit', () => reject(new Error(`crawlkit worker exited: ${workerOutput}`)));
  });
  serve = await serveCli(dir, redis, env);
}, 300_000);

afterAll(async () => {
  await serve?.stop();
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    await worker.result;
  }
  await hook?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("a crawl started through serve and sent by a leading worker names serve's flag", { timeout: 120_000 }, async () => {
  if (!serve) return;
  const answer = await fetch(`${serve.url}/v2/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}/manual.pdf`, limit: 1, sitemap: 'skip', webhook: { url: hook.url } }),
  });
  const { id } = (await answer.json()) as { id: string };
  expect(answer.status, JSON.stringify(id)).toBe(200);
  const pageWarnings = () =>
    hook.events
      .map((event) => event.payload)
      .filter((payload) => payload.id === id && payload.type === 'crawl.page')
      .flatMap((payload) => (payload.data as { warning?: string }[]).map((doc) => doc.warning));
  await until(() => pageWarnings().length > 0, 60_000);
  // Before: "… raise `extractionBudgetMs` to read the rest.", the worker's own (the engine's) words.
  expect(pageWarnings()).toEqual([expect.stringContaining(SERVE_CUT)]);
  await until(() => hook.events.some((event) => event.payload.type === 'crawl.completed'), 60_000);
  expect(JSON.stringify(hook.events)).not.toContain('extractionBudgetMs');
});
