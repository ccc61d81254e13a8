import { setTimeout as sleep } from 'node:timers/promises';
import { readdir, readlink, realpath, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Chromium's shared memory as files: with `--disable-dev-shm-usage` (`CHROMIUM_FLAGS`: a container's `/dev/shm` is
 * small) it makes them in the temporary directory, `.org.chromium.Chromium.XXXXXX`, and unlinks each right after
 * opening it. A SIGKILL in between left one behind (once in a fresh-clone CI run, in `socket-dir.test.ts`).
 */
const SHM_FILE = /^\.org\.chromium\.Chromium\.[A-Za-z0-9]{6}$/;

/** How long a file of a live Chromium can stay before its unlink: microseconds; this is far past it. */
const SETTLE_MS = 50;

/**
 * Removes the shared memory files left in `dir` by Chromiums killed since `since` (epoch ms): those there in two
 * scans `SETTLE_MS` apart, made at `since` or later, that no process holds open. Call once the browser's processes
 * are dead. A live Chromium's file is gone by the second scan unless its thread was held up between making it and
 * unlinking it (a loaded machine, another browser of the pool or of another process starting); it holds the file open
 * meanwhile, from its making (`mkstemp`), and opens it again by name before the unlink: removed then, that open fails
 * and with it the shared memory the browser was making.
 */
export async function removeShmLeftovers(dir: string, since: number): Promise<void> {
  const first = await leftovers(dir, since);
  if (first.length === 0) return;
  await sleep(SETTLE_MS);
  // As `/proc` names them: the directory without its symbolic links.
  const real = await realpath(dir).catch(() => dir);
  const still = (await leftovers(dir, since)).filter((name) => first.includes(name)).map((name) => join(real, name));
  if (still.length === 0) return;
  const held = await heldOpen(new Set(still));
  await Promise.all(still.filter((path) => !held.has(path)).map((path) => rm(path, { force: true }).catch(() => {})));
}

/**
 * Those of `paths` a process has open (Linux `/proc`: each process's descriptors; those of a process this one may not
 * read, another user's, are not seen, nor are its files this one's to remove). Read only when a leftover is found.
 */
async function heldOpen(paths: ReadonlySet<string>): Promise<Set<string>> {
  const held = new Set<string>();
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((entry) => /^\d+$/.test(entry));
  await Promise.all(
    pids.map(async (pid) => {
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
      for (const fd of fds) {
        const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
        if (paths.has(target)) held.add(target);
      }
    }),
  );
  return held;
}

async function leftovers(dir: string, since: number): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => SHM_FILE.test(name));
  const made = await Promise.all(
    names.map(async (name) => {
      const info = await stat(join(dir, name)).catch(() => undefined);
      // A second of slack: a file system's time stamps may be coarser than the clock.
      return info?.isFile() && info.mtimeMs >= since - 1_000 ? name : undefined;
    }),
  );
  return made.filter((name) => name !== undefined);
}
