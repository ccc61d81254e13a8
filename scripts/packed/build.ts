/** Builds the workspace's packages when a build is missing or older than its sources (tests and `test:packed`). */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

function builtAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Runs `pnpm build` (dependency order, incremental) when any package's build is missing or older than its sources:
 * the CLI and a packed install run the built code of every package, and a stale `@crawlkit/store` fails them as surely
 * as a stale `crawlkit`. Returns whether it built.
 */
export function ensureBuilt(): boolean {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const stale = packages.some(({ name }) => {
    const dir = join(root, 'packages', name);
    return builtAt(join(dir, 'dist/index.js')) < newestMtime(join(dir, 'src'));
  });
  if (stale) execFileSync('pnpm', ['build'], { cwd: root, stdio: 'ignore' });
  return stale;
}
