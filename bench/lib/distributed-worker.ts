/**
 * A worker process for bench/distributed.ts: `node bench/lib/distributed-worker.ts <redis url> <prefix>
 * <concurrency>`. Prints `ready` once it takes tasks; SIGTERM closes it.
 */
import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';

const [url, prefix, concurrency] = process.argv.slice(2);
const ck = new Crawlkit({
  backend: redis({ url: url!, prefix: prefix! }),
  engine: 'http',
  concurrency: Number(concurrency ?? 16),
});
await ck.startWorker();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void ck.close().then(() => process.exit(0));
});
