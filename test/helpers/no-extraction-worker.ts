/**
 * `--import`ed by a child (before `built-hooks.ts`'s run of crawlkit): in every worker thread, which inherit the
 * flag, the extraction worker's module fails to load, as it does when crawlkit's files are not where it runs.
 */
import { registerHooks } from 'node:module';
import { isMainThread } from 'node:worker_threads';

registerHooks({
  load(url, context, nextLoad) {
    if (!isMainThread && /\/extraction\/worker\.[jt]s$/.test(url)) throw new Error('the worker module is missing');
    return nextLoad(url, context);
  },
});
