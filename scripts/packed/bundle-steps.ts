/**
 * Packed checks of an app bundled with esbuild from the installed tarballs (README, Bundling): with crawlkit kept
 * external, the bundle (ES module and CommonJS) scrapes; with crawlkit bundled into it, the import throws
 * `PACKAGE_BUNDLED` saying what to mark external, instead of a page failing far from the cause. Part of `STEPS`.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { build, type BuildOptions } from 'esbuild';

import { run } from './run.ts';
import { ARTICLE_TITLE } from './site.ts';
import type { Step, StepContext } from './steps.ts';

/**
 * An app that scrapes the fixture site's article (extraction in the worker pool) and prints its title, or the code
 * of what it threw (crawlkit imported in the app's `main`, so that an error of the import is caught there too).
 */
const app = (ctx: StepContext) => `async function main() {
  const { Crawlkit } = await import('crawlkit');
  const ck = new Crawlkit({ store: 'memory', engine: 'http' });
  const page = await ck.scrape({ url: '${ctx.site}/article', formats: ['markdown'] });
  await ck.close();
  console.log(page.success ? page.data.metadata.title : page.error);
}
main().catch((error) => {
  console.log(error.code);
  process.exitCode = 1;
});
`;

/**
 * Bundles the app with esbuild into `bundle/` of the install folder (whose node_modules it resolves crawlkit from
 * when kept external), runs the bundle there, and returns what it printed.
 */
async function bundleAndRun(ctx: StepContext, name: string, options: BuildOptions) {
  const dir = join(ctx.dir, 'bundle');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'app-source.ts');
  writeFileSync(entry, app(ctx));
  const outfile = join(dir, name);
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', logLevel: 'error', ...options });
  return run(ctx.node, [outfile], { cwd: dir, timeoutMs: 30_000 });
}

const external: Step = {
  name: 'an esbuild bundle with crawlkit external scrapes (ESM and CommonJS)',
  run: async (ctx) => {
    for (const [name, format] of [
      ['external.mjs', 'esm'],
      ['external.cjs', 'cjs'],
    ] as const) {
      const result = await bundleAndRun(ctx, name, { format, packages: 'external' });
      assert.equal(result.status, 0, `${name}: ${result.stderr}${result.stdout}`);
      assert.equal(result.stdout.trim(), ARTICLE_TITLE, name);
    }
  },
};

const bundled: Step = {
  name: 'crawlkit bundled into an app throws PACKAGE_BUNDLED on import',
  run: async (ctx) => {
    const result = await bundleAndRun(ctx, 'bundled.mjs', { format: 'esm' });
    assert.equal(result.stdout.trim(), 'PACKAGE_BUNDLED', `${result.stderr}${result.stdout}`);
  },
};

export const bundleSteps: Step[] = [external, bundled];
