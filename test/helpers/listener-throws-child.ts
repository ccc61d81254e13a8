/**
 * `node --import ./test/helpers/built-hooks.ts test/helpers/listener-throws-child.ts <site>`: an app whose first
 * listener of every event throws, beside a second one that counts. Scrapes `<site>/solo`, crawls from `<site>/`,
 * then prints `result <JSON>`: the scrape's success, the crawl's status and page count, what the counting listeners
 * saw and the messages that reached `uncaughtException`.
 */
import { Crawlkit, type CrawlkitEvents } from 'crawlkit';

const caught: string[] = [];
process.on('uncaughtException', (error) => caught.push(error.message));

const site = process.argv[2]!;
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const events: (keyof CrawlkitEvents)[] = ['page', 'progress', 'job:started', 'job:completed'];
const seen: Record<string, number> = {};
for (const event of events) {
  ck.on(event, () => {
    throw new Error(`${event} listener`);
  });
  ck.on(event, () => (seen[event] = (seen[event] ?? 0) + 1));
}

const scrape = await ck.scrape({ url: `${site}/solo` });
const crawl = await ck.crawl({ url: `${site}/`, limit: 10 });
const done = crawl.success ? await ck.waitForJob(crawl.id) : crawl;
await ck.close();
// The listeners' errors are reported on their own ticks.
await new Promise((resolve) => setImmediate(resolve));
const result = {
  scrape: scrape.success,
  crawl: done.success ? { status: done.status, pages: done.data.length } : done.error,
  seen,
  caught: [...new Set(caught)].sort(),
};
process.stdout.write(`result ${JSON.stringify(result)}\n`);
