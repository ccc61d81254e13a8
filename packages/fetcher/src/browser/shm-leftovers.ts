import { setTimeout as sleep } from 'node:timers/promises';
import { readdir, rm, stat } from 'node:fs/promises';
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
 * scans `SETTLE_MS` apart, made at `since` or later. Call once the browser's processes are dead: a live one's file is
 * gone by the second scan.
 */
export async function removeShmLeftovers(dir: string, since: number): Promise<void> {
  const first = await leftovers(dir, since);
  if (first.length === 0) return;
  await sleep(SETTLE_MS);
  const still = await leftovers(dir, since);
  await Promise.all(
    still.filter((name) => first.includes(name)).map((name) => rm(join(dir, name), { force: true }).catch(() => {})),
  );
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
