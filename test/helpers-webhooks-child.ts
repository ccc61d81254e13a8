/**
 * Child process of the kill -9 case of `test/webhook-restarts.test.ts`, run from the TypeScript sources:
 *   node --import ./test/helpers/built-hooks.ts test/helpers-webhooks-child.ts start <storeDir> <hook> <url>...
 *   node --import ./test/helpers/built-hooks.ts test/helpers-webhooks-child.ts resume <storeDir>
 * `start` creates a batch with a webhook and prints its id; `resume` opens the store with `resumeJobs: true` and
 * prints `resumed`. Both then run until killed (the test waits for the receiver, not for the process).
 */
import { Crawlkit } from 'crawlkit';

const [mode, storeDir, hook, ...urls] = process.argv.slice(2);
// An attempt that times out is sent again (delivery is at least once): under a loaded run the test's receiver, in
// another process, answered past 1 s once, and the event arrived twice. 30 s is past any answer here, so a duplicate
// the test sees is a real second send.
const ck = new Crawlkit({
  storeDir: storeDir!,
  engine: 'http',
  resumeJobs: mode === 'resume',
  webhooks: { secret: 'kill-secret', retryDelayMs: 30, maxRetryDelayMs: 100, maxAttempts: 10_000, timeoutMs: 30_000 },
});

if (mode === 'start') {
  const batch = await ck.batchScrape({ urls, maxConcurrency: 2, webhook: hook!, maxAge: 0 });
  if (!batch.success) throw new Error(`start failed: ${JSON.stringify(batch)}`);
  process.stdout.write(`${batch.id}\n`);
} else {
  process.stdout.write('resumed\n');
}
setInterval(() => undefined, 60_000);
