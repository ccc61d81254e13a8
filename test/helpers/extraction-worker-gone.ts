/**
 * `--import`ed by a child (before `built-hooks.ts`'s run of crawlkit): once the file named by
 * `CRAWLKIT_TEST_WORKER_GONE` exists, the extraction worker's module fails to load in every new worker thread, as it
 * does when crawlkit's files are deleted while it runs (an upgrade in place, a cleaned deploy directory).
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const gone = process.env.CRAWLKIT_TEST_WORKER_GONE;

registerHooks({
  load(url, context, nextLoad) {
    if (!isMainThread && gone && existsSync(gone) && /\/extraction\/worker\.[jt]s$/.test(url)) {
      throw new Error('the worker module is gone');
    }
    return nextLoad(url, context);
  },
});
