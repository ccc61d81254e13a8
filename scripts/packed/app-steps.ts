/**
 * Packed checks of crawlkit inside someone's app: loaded with require() from CommonJS, and a script that never calls
 * `close()`. Part of `STEPS` (`steps.ts`).
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { run } from './run.ts';
import { ARTICLE_TITLE } from './site.ts';
import type { Step, StepContext } from './steps.ts';

/** Writes `source` into the install folder as `name` and runs it there with the steps' Node. */
function runFile(ctx: StepContext, name: string, source: string, timeoutMs?: number) {
  const file = join(ctx.dir, name);
  writeFileSync(file, source);
  return run(ctx.node, [file], { cwd: ctx.dir, ...(timeoutMs ? { timeoutMs } : {}) });
}

/**
 * `require('crawlkit')` from CommonJS (no bundler): Node 22.12+ loads our ES modules with require(), one copy of
 * them whichever way they are loaded, so a caught error is an `instanceof` the class the user required.
 */
const commonjs: Step = {
  name: "require('crawlkit') from CommonJS",
  run: async (ctx) => {
    const result = await runFile(
      ctx,
      'app.cjs',
      `const { Crawlkit, CrawlkitError } = require('crawlkit');
(async () => {
  const ck = new Crawlkit({ store: 'memory', engine: 'http' });
  const page = await ck.scrape({ url: '${ctx.site}/article' });
  let caught;
  try {
    for await (const _ of ck.watch('not-a-job')) break;
  } catch (error) {
    caught = error;
  }
  const esm = await import('crawlkit');
  await ck.close();
  console.log(JSON.stringify({
    title: page.success && page.data.metadata.title,
    code: caught && caught.code,
    instance: caught instanceof CrawlkitError,
    oneCopy: esm.CrawlkitError === CrawlkitError,
  }));
})();
`,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '', 'require() of crawlkit warns');
    assert.deepEqual(JSON.parse(result.stdout), {
      title: ARTICLE_TITLE,
      code: 'BAD_REQUEST',
      instance: true,
      oneCopy: true,
    });
  },
};

/**
 * A script that never calls `close()` exits once its work is done (HTTP engine, SQLite store, a crawl to its end):
 * nothing of the engine (timers, sockets, worker threads, the store) holds the process. Killed after 30 s.
 */
const noClose: Step = {
  name: 'a script without close() exits when done',
  run: async (ctx) => {
    const result = await runFile(
      ctx,
      'no-close.mjs',
      `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ storeDir: './no-close-store', engine: 'http' });
const page = await ck.scrape({ url: '${ctx.site}/article', formats: ['markdown', 'links'] });
const crawl = await ck.crawl({ url: '${ctx.site}/article', limit: 2 });
const done = crawl.success && (await ck.waitForJob(crawl.id));
console.log(page.success, done && done.status);
`,
      30_000,
    );
    assert.equal(result.status, 0, `exit ${result.status}: ${result.stderr}`);
    assert.equal(result.stdout.trim(), 'true completed');
  },
};

export const appSteps: Step[] = [commonjs, noClose];
