/**
 * A crawlkit worker process for the distributed tests: `node --import ../helpers/built-hooks.ts worker-process.ts
 * <redis url> <prefix> <concurrency>`. Prints `ready` once it takes tasks, then `page <sourceURL>` for each page it stores, and
 * `sent <epoch ms> <url>` as each request's head is written to its socket (undici's `sendHeaders` channel): when the
 * request left, as this process saw it, without the receiving server's own delays. SIGTERM closes it cleanly.
 */
import { subscribe } from 'node:diagnostics_channel';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';

const [url, prefix, concurrency] = process.argv.slice(2);
const ck = new Crawlkit({
  backend: redis({ url: url!, prefix: prefix!, taskLockMs: 3_000, stalledCheckMs: 1_000 }),
  engine: 'http',
  concurrency: Number(concurrency ?? 4),
});
subscribe('undici:client:sendHeaders', (message) => {
  const { request } = message as { request: { origin: string; path: string } };
  process.stdout.write(`sent ${Date.now()} ${request.origin}${request.path}\n`);
});
ck.on('page', ({ document }) => process.stdout.write(`page ${document.metadata.sourceURL}\n`));
await ck.startWorker({ sweepIntervalMs: 1_000 });
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void ck.close().then(() => process.exit(0));
});
