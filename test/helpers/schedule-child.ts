/**
 * Child process of `test/schedule-restart.test.ts`, run from the TypeScript sources:
 *   node --import ./test/helpers/built-hooks.ts test/helpers/schedule-child.ts <storeDir> [<siteUrl> <webhookUrl>]
 * Opens the on-disk store at `storeDir` with `runSchedules: true`; with a site, first creates a schedule crawling it
 * every 2 seconds with a webhook per change. Prints one JSON line per event: `{"created":id}`,
 * `{"run":{...}}` (`schedule:run`) and `{"changes":{...}}` (`schedule:changes`). Runs until killed.
 */
import { Crawlkit } from 'crawlkit';

const [storeDir, siteUrl, webhookUrl] = process.argv.slice(2);
const print = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);

const ck = new Crawlkit({ storeDir: storeDir!, engine: 'http', runSchedules: true, resumeJobs: true });
ck.on('error', (event) => process.stderr.write(`engine error: ${JSON.stringify(event)}\n`));
ck.on('schedule:run', (run) => print({ run }));
ck.on('schedule:changes', (changes) => print({ changes }));

if (siteUrl !== undefined) {
  const created = await ck.schedules.create({
    every: '2s',
    targets: [{ type: 'crawl', url: `${siteUrl}/`, sitemap: 'skip', scrapeOptions: { maxAge: 1 } }],
    webhook: { url: webhookUrl!, events: ['new', 'changed', 'removed'] },
  });
  if (!created.success) throw new Error(`schedule refused: ${JSON.stringify(created)}`);
  print({ created: created.data.id });
}
// The engine's timers are unref'd: this keeps the process up until the test kills it.
setInterval(() => undefined, 60_000);
