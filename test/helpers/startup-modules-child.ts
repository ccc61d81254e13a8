/**
 * Child process of `test/startup-modules.test.ts`: records every module this thread loads, then
 *   import   imports crawlkit;
 *   scrape   imports crawlkit and scrapes `url` to markdown (memory store);
 *   browser  the same scrape in the browser (`waitFor` takes it there);
 *   schedule imports crawlkit, lists the schedules and searches the (empty) index: the first calls of schedules and
 *            search;
 *   worker   imports the extraction worker's module: what a worker loads before its first page;
 *   missing  scrapes `url` (a CSV) with csv-parse made impossible to resolve, as in an install that lost it, and
 *            prints the scrape's answer instead;
 *   cli      runs the `crawlkit` command with the arguments that follow (`cli --version`, `cli scrape <url> ...`), and
 *            prints the list on a line of its own after the command's output, as the command exits.
 * Prints the URLs of the loaded modules as one JSON array, Node's own modules among them as `node:<id>` (internal ones
 * too: `node:internal/deps/undici/undici` is Node's bundled undici). Run from the sources
 * (`node --import ./test/helpers/source-hooks.ts test/helpers/startup-modules-child.ts <mode> [url]`), or on a build:
 * `CK_STARTUP_BUILD=<packages/crawlkit/dist>` imports its `index.js`, `extraction/worker.js` and `cli.js` instead.
 */
import { writeSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

import type * as CrawlkitModule from 'crawlkit';

import { ISOLATED_ARGS } from './scrape.ts';

const [mode, url] = process.argv.slice(2);
const loaded: string[] = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (mode === 'missing' && specifier === 'csv-parse/sync') {
      throw Object.assign(new Error(`Cannot find package 'csv-parse'`), { code: 'ERR_MODULE_NOT_FOUND' });
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});

const build = process.env['CK_STARTUP_BUILD'];
const entry = build ? `${build}/index.js` : 'crawlkit';
const worker = build
  ? `${build}/extraction/worker.js`
  : new URL('../../packages/crawlkit/src/extraction/worker.ts', import.meta.url).href;

// Node's own list of the modules it loaded (undocumented, and not in @types/node).
const { moduleLoadList } = process as unknown as { moduleLoadList: readonly string[] };
const loadedList = () => [
  ...loaded,
  ...moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => `node:${m.slice(13)}`),
];

if (mode === 'cli') {
  const cli = build ? `${build}/cli.js` : fileURLToPath(new URL('../../packages/crawlkit/src/cli.ts', import.meta.url));
  process.argv = [process.argv[0]!, cli, ...process.argv.slice(3)];
  // The command ends with process.exit once its output is written.
  process.on('exit', () => writeSync(1, `\n${JSON.stringify(loadedList())}\n`));
  await import(cli);
} else if (mode === 'worker') {
  await import(worker);
} else {
  const { Crawlkit } = (await import(entry)) as typeof CrawlkitModule;
  if (mode === 'schedule') {
    const ck = new Crawlkit({ store: 'memory' });
    const listed = await ck.schedules.list();
    const found = await ck.search({ query: 'plane' });
    await ck.close();
    if (!listed.success || !found.success) throw new Error(`a call failed: ${JSON.stringify([listed, found])}`);
  } else if (mode === 'browser') {
    const ck = new Crawlkit({ store: 'memory', browser: { args: ISOLATED_ARGS } });
    const result = await ck.scrape({ url: url!, formats: ['markdown'], waitFor: 1 });
    await ck.close();
    if (!result.success || result.data.metadata.engine !== 'browser') {
      throw new Error(`the browser scrape failed: ${JSON.stringify(result)}`);
    }
  } else if (mode === 'scrape' || mode === 'missing') {
    // No worker threads for `missing`: the hook above is this thread's only.
    const ck = new Crawlkit({ store: 'memory', ...(mode === 'missing' ? { workers: { size: 0 } } : {}) });
    const result = await ck.scrape({ url: url!, formats: ['markdown'] });
    await ck.close();
    if (mode === 'missing') {
      process.stdout.write(JSON.stringify(result));
      process.exit(0);
    }
    if (!result.success || !result.data.markdown) throw new Error(`the scrape failed: ${JSON.stringify(result)}`);
  }
}
if (mode !== 'cli') process.stdout.write(JSON.stringify(loadedList()));
