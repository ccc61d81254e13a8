/**
 * `pnpm test:packed`: what users install is what we test. Packs every publishable package of `packages/` (new ones
 * are picked up), installs the tarballs with the system's npm into an empty temporary folder, and runs the steps of
 * `scripts/packed/steps.ts` there against a fixture site on 127.0.0.1: a library scrape, the CLI, `serve`, the PDF
 * bomb, an app traced by `@vercel/nft` and copied elsewhere, an older Node, the oldest Node promised, Bun and Deno
 * (installed from npm). Fails as well when the install is past its size budget (`packed/install-size.ts`). Prints each
 * phase's time; exits 1 when a step fails. `.ci/run` runs it.
 *
 * npm uses its own cache (`~/.npm`, or `CRAWLKIT_PACKED_NPM_CACHE`) with `--prefer-offline`, so a machine that has
 * installed once downloads nothing. `--keep` leaves the folder for a look.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureBuilt } from './packed/build.ts';
import { checkInstallSize } from './packed/install-size.ts';
import { olderNode, onPath } from './packed/old-node.ts';
import { installOldestNode, OLDEST_NODE } from './packed/oldest-node.ts';
import { installRuntimes } from './packed/runtimes.ts';
import { startSite } from './packed/site.ts';
import { STEPS, type StepContext } from './packed/steps.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
const timings: [string, number][] = [];

async function timed<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const ms = performance.now() - started;
    timings.push([name, ms]);
    console.log(`[packed] ${name}: ${(ms / 1000).toFixed(1)} s`);
  }
}

/** The system's npm: the first on PATH outside the workspace (pnpm puts its own bins first). */
function systemNpm(): string {
  const npm = onPath('npm').find((path) => !path.startsWith(root)) ?? 'npm';
  return npm;
}

/** Directories of the packages to publish. */
function packages(): string[] {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, 'packages', entry.name))
    .filter((dir) => {
      try {
        return !(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { private?: boolean }).private;
      } catch {
        return false;
      }
    });
}

const work = mkdtempSync(join(tmpdir(), 'ck-packed-'));
const tarballs = join(work, 'tarballs');
const dir = join(work, 'install');
mkdirSync(tarballs);
mkdirSync(dir);
let failed = 0;
const site = await startSite();
try {
  // Built by CI's setup already: only what is stale is built again.
  await timed('build (when stale)', () => ensureBuilt());
  const packed = await timed('pack', () =>
    packages().map((pkg) => {
      const out = execFileSync('pnpm', ['pack', '--pack-destination', tarballs], { cwd: pkg, encoding: 'utf8' });
      const line = out.trim().split('\n').pop()!;
      return line.includes('/') ? line : join(tarballs, line);
    }),
  );
  console.log(`[packed] ${packed.length} tarballs: ${packed.map((p) => p.split('/').pop()).join(', ')}`);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'packed-check', private: true, type: 'module' }));
  const npm = systemNpm();
  const cache = process.env.CRAWLKIT_PACKED_NPM_CACHE;
  const npmInstall = (...specs: string[]) =>
    execFileSync(
      npm,
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        ...(cache ? ['--cache', cache] : []),
        ...specs,
      ],
      { cwd: dir, stdio: 'inherit' },
    );
  await timed(`npm install (${npm})`, () => npmInstall(...packed));
  try {
    await timed('install size', () => checkInstallSize(join(dir, 'node_modules')));
  } catch (error) {
    failed++;
    console.error(`[packed] FAILED install size: ${error instanceof Error ? error.message : String(error)}`);
  }
  const oldNode = olderNode();
  const oldest = await timed(`npm install node@${OLDEST_NODE}`, () =>
    installOldestNode(npm, ['--prefer-offline', ...(cache ? ['--cache', cache] : [])], work),
  );
  const others = await timed('npm install bun deno', () =>
    installRuntimes(npm, ['--prefer-offline', ...(cache ? ['--cache', cache] : [])], work),
  );
  const ctx: StepContext = {
    dir,
    site: site.url,
    node: process.execPath,
    npmInstall,
    ...(oldNode ? { oldNode } : {}),
    ...(oldest.node ? { oldestNode: oldest.node } : { oldestNodeSkip: oldest.skip }),
    runtimes: others.runtimes,
    ...(others.skip.length ? { runtimesSkip: others.skip.join('; ') } : {}),
  };
  for (const step of STEPS) {
    try {
      await timed(step.name, () => step.run(ctx));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message.startsWith('skip:')) {
        console.log(`[packed] SKIPPED ${step.name}: ${message.slice(5).trim()}`);
        continue;
      }
      failed++;
      console.error(`[packed] FAILED ${step.name}: ${message}`);
    }
  }
} finally {
  await site.close();
  if (keep) console.log(`[packed] kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
console.log(`[packed] ${failed ? `${failed} step(s) FAILED` : 'all steps passed'} in ${(total / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
