/**
 * Bun and Deno, installed from npm (`bun` carries its binary in `@oven/bun-<platform>-<arch>`, `deno` in
 * `@deno/<platform>-<arch>-<libc>`, both optional dependencies: no download from elsewhere), so that the packed install
 * is walked on them as a user of either would: the main paths of `oldest-node-paths.ts`, a `require()`, and a page
 * past the worker heap limit followed by one that must not wait on it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { CHECKED_RUNTIMES } from '../../packages/crawlkit/src/requirements.ts';
import { mainPaths, runOn, type Runtime } from './oldest-node-paths.ts';
import type { Step, StepContext } from './steps.ts';

/** The versions walked, those crawlkit's start-up check names (`docs/decisions.md`, Bun and Deno). */
const RUNTIMES = { bun: CHECKED_RUNTIMES.Bun, deno: CHECKED_RUNTIMES.Deno } as const;

/**
 * Installs Bun and Deno into `<work>/runtimes` with `npm` (`args`: its cache flags); returns those that run, and why
 * the others are missing.
 */
export function installRuntimes(npm: string, args: string[], work: string): { runtimes: Runtime[]; skip: string[] } {
  const dir = join(work, 'runtimes');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'runtimes', private: true }));
  const specs = Object.entries(RUNTIMES).map(([name, version]) => `${name}@${version}`);
  try {
    execFileSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', ...args, ...specs], {
      cwd: dir,
      stdio: 'pipe',
      timeout: 180_000,
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? error).trim();
    return { runtimes: [], skip: [`npm could not install ${specs.join(' ')}: ${stderr.split('\n').pop()}`] };
  }
  const runtimes: Runtime[] = [];
  const skip: string[] = [];
  for (const [name, version] of Object.entries(RUNTIMES)) {
    const bin = join(dir, 'node_modules/.bin', name);
    const ran = existsSync(bin) ? spawnSync(bin, ['--version'], { encoding: 'utf8' }) : undefined;
    if (!ran?.stdout?.includes(version)) {
      skip.push(`${name}@${version} has no binary that runs on ${process.platform}-${process.arch}`);
      continue;
    }
    const label = `${name[0]!.toUpperCase()}${name.slice(1)} ${version}`;
    runtimes.push({ name: label, command: name === 'deno' ? [bin, 'run', '-A'] : [bin] });
  }
  return { runtimes, skip };
}

/** `require('crawlkit')` from a CommonJS file. */
async function commonJs(ctx: StepContext, runtime: Runtime): Promise<void> {
  const file = join(ctx.dir, `require-${runtime.name.replace(/\W+/g, '-')}.cjs`);
  writeFileSync(file, "const { Crawlkit } = require('crawlkit');\nconsole.log(typeof Crawlkit);\n");
  const result = await runOn(runtime, [file], { cwd: ctx.dir });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout.trim(), 'function', `require('crawlkit') on ${runtime.name}`);
}

/**
 * A 13 MB table page that a 64 MiB worker heap cannot hold, then a small page: the small one must be scraped. On Deno
 * the table's bytes, copied slowly to the worker, reached its heap limit there before the call started, and Deno
 * stalls such a thread instead of stopping it: every later page waited for it until its timeout. Both fail the table
 * with `SCRAPE_TIMEOUT` (README, Bun and Deno): Deno at its heap limit, Bun, which applies none, when the table outlasts
 * its deadline. Bun extracts the table in 5-6 s here, so its deadline is 2 s: at 5 s the outcome was a race.
 */
async function pastHeapLimit(ctx: StepContext, runtime: Runtime): Promise<void> {
  const file = join(ctx.dir, `heap-${runtime.name.replace(/\W+/g, '-')}.mjs`);
  writeFileSync(
    file,
    `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ store: 'memory', engine: 'http', workers: { size: 1, maxMemoryMb: 64 } });
const table = await ck.scrape({ url: '${ctx.site}/table', formats: ['markdown'], timeout: ${runtime.name.startsWith('Bun') ? 2000 : 5000} });
const next = await ck.scrape({ url: '${ctx.site}/article', formats: ['markdown'], timeout: 10000 });
await ck.close();
console.log(JSON.stringify({ table, next }));`,
  );
  const result = await runOn(runtime, [file], { cwd: ctx.dir, timeoutMs: 60_000 });
  assert.equal(result.status, 0, result.stderr);
  type Outcome = { success: boolean; code?: string; error?: string };
  const { table, next } = JSON.parse(result.stdout) as Record<'table' | 'next', Outcome>;
  assert.equal(table.success, false, `the table page on ${runtime.name} passed its worker's heap limit`);
  assert.equal(table.code, 'SCRAPE_TIMEOUT', `the table page on ${runtime.name}: ${table.error}`);
  assert.equal(next.success, true, `the page after the table on ${runtime.name}: ${next.error}`);
}

export const otherRuntimes: Step = {
  name: `Bun ${RUNTIMES.bun}, Deno ${RUNTIMES.deno}: crawl, batch, read a PDF, serve, require(), outlast a heavy page`,
  run: async (ctx) => {
    if (!ctx.runtimes?.length) throw new Error(`skip: ${ctx.runtimesSkip ?? 'neither Bun nor Deno installed'}`);
    for (const runtime of ctx.runtimes) await mainPaths(ctx, runtime, [commonJs, pastHeapLimit]);
    if (ctx.runtimesSkip) console.log(`[packed] ${ctx.runtimesSkip}`);
  },
};
