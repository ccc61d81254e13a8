/**
 * The oldest Node.js crawlkit promises (`MIN_NODE`), installed from npm (the `node-<platform>-<arch>` package of that
 * version: the same binaries as nodejs.org's), so that the packed install is checked on it and not only on the
 * workspace's Node 24.
 */
import { execFileSync } from 'node:child_process';
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { MIN_NODE } from '../../packages/crawlkit/src/requirements.ts';
import { run } from './run.ts';
import type { Step } from './steps.ts';

/** The version checked: the first patch release of `MIN_NODE`. */
export const OLDEST_NODE = `${MIN_NODE.join('.')}.0`;

/**
 * Installs Node.js `OLDEST_NODE` into `<work>/oldest-node` with `npm` (`args`: its cache flags) and returns its
 * binary, or a reason to skip (a platform without such a package, npm unable to fetch it).
 */
export function installOldestNode(npm: string, args: string[], work: string): { node?: string; skip?: string } {
  const name = `node-${process.platform}-${process.arch}`;
  const dir = join(work, 'oldest-node');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'oldest-node', private: true }));
  try {
    execFileSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', ...args, `${name}@${OLDEST_NODE}`], {
      cwd: dir,
      stdio: 'pipe',
      // A registry out of reach makes npm retry for minutes: the step is skipped instead.
      timeout: 120_000,
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? error).trim();
    return { skip: `npm could not install ${name}@${OLDEST_NODE}: ${stderr.split('\n').pop()}` };
  }
  const node = join(dir, 'node_modules', name, 'bin', 'node');
  return existsSync(node) ? { node } : { skip: `${name}@${OLDEST_NODE} has no bin/node` };
}

/**
 * A scrape and a search of the stored page (the store's SQLite with FTS5) with the oldest Node promised, through the
 * library and the CLI, a require() of the library, and a store opened by `@crawlkit/store` alone, each with nothing on
 * stderr (Node 22 warned of `node:sqlite` being experimental on every run).
 */
export const oldestNode: Step = {
  name: `the oldest Node promised (${OLDEST_NODE}) scrapes and searches: library, CLI, require(), store alone`,
  run: async (ctx) => {
    if (!ctx.oldestNode) throw new Error(`skip: ${ctx.oldestNodeSkip ?? 'no oldest Node installed'}`);
    const file = join(ctx.dir, 'oldest-node.mjs');
    writeFileSync(
      file,
      `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ storeDir: './oldest-node-store', engine: 'http' });
const page = await ck.scrape({ url: '${ctx.site}/article', formats: ['markdown'] });
const found = await ck.search({ query: 'install', sources: ['local'] });
await ck.close();
console.log(JSON.stringify({ version: process.version, page, found }));`,
    );
    const result = await run(ctx.oldestNode, [file], { cwd: ctx.dir });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '', `the library on Node ${OLDEST_NODE} printed to stderr`);
    const { version, page, found } = JSON.parse(result.stdout) as {
      version: string;
      page: { success: boolean; error?: string };
      found: { success: boolean; error?: string; data?: { local?: { url: string }[] } };
    };
    assert.equal(version, `v${OLDEST_NODE}`);
    assert.equal(page.success, true, page.error);
    assert.equal(found.success, true, found.error);
    assert.equal(found.data?.local?.[0]?.url, `${ctx.site}/article`);
    const cli = join(ctx.dir, 'node_modules/.bin/crawlkit');
    const store = join(ctx.dir, 'oldest-node-store');
    const scraped = await run(
      ctx.oldestNode,
      [cli, 'scrape', `${ctx.site}/article`, '--engine', 'http', '--store', store],
      { cwd: ctx.dir },
    );
    assert.equal(scraped.status, 0, scraped.stderr);
    assert.match(scraped.stdout, /# What users install is what we test/);
    assert.equal(scraped.stderr, '', `crawlkit scrape on Node ${OLDEST_NODE} printed to stderr`);
    // CommonJS: Node 22.12+ loads our ES modules with require(), with no warning from 22.13 on.
    const required = join(ctx.dir, 'oldest-node.cjs');
    writeFileSync(required, "const { Crawlkit } = require('crawlkit');\nconsole.log(typeof Crawlkit);\n");
    const commonjs = await run(ctx.oldestNode, [required], { cwd: ctx.dir });
    assert.equal(commonjs.status, 0, commonjs.stderr);
    assert.equal(commonjs.stdout.trim(), 'function');
    assert.equal(commonjs.stderr, '', `require('crawlkit') on Node ${OLDEST_NODE} printed to stderr`);
    // @crawlkit/store on its own (no crawlkit import, whose runtime check loads node:sqlite first) opens a store.
    const storeOnly = join(ctx.dir, 'oldest-node-store-only.mjs');
    writeFileSync(
      storeOnly,
      "import { createSqliteStore } from '@crawlkit/store';\n" +
        "const store = await createSqliteStore({ dir: './oldest-node-store-only' });\n" +
        "await store.close();\nconsole.log('opened');\n",
    );
    const alone = await run(ctx.oldestNode, [storeOnly], { cwd: ctx.dir });
    assert.equal(alone.status, 0, alone.stderr);
    assert.equal(alone.stdout.trim(), 'opened');
    assert.equal(alone.stderr, '', `@crawlkit/store alone on Node ${OLDEST_NODE} printed to stderr`);
  },
};
