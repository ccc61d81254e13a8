/** Builds the workspace's packages when a build is missing or older than its sources (tests and `test:packed`). */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
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

function isStale(): boolean {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return packages.some(({ name }) => {
    const dir = join(root, 'packages', name);
    return builtAt(join(dir, 'dist/index.js')) < newestMtime(join(dir, 'src'));
  });
}

const LOCK = join(root, 'node_modules/.crawlkit-build.lock');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the build lock, or returns false when another live process holds it (a dead holder's lock is taken over). */
function tryLock(): boolean {
  try {
    const fd = openSync(LOCK, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let holder: number;
  try {
    holder = Number(readFileSync(LOCK, 'utf8'));
  } catch {
    return false; // released between our open and read: try again
  }
  if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) return false;
  rmSync(LOCK, { force: true });
  return false;
}

/**
 * Runs `pnpm build` (dependency order, incremental) when any package's build is missing or older than its sources:
 * the CLI and a packed install run the built code of every package, and a stale `@crawlkit/store` fails them as surely
 * as a stale `crawlkit`. Test files run in parallel processes, so one builds while the others wait for its lock (two
 * builds at once write the same `dist` files). Returns whether this call built.
 */
export function ensureBuilt(): boolean {
  if (!isStale()) return false;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!tryLock()) Atomics.wait(pause, 0, 0, 200);
  try {
    if (!isStale()) return false;
    execFileSync('pnpm', ['build'], { cwd: root, stdio: 'ignore' });
    return true;
  } finally {
    rmSync(LOCK, { force: true });
  }
}
