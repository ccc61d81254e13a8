import { hostname } from 'node:os';
import { readdir, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { isProcessGone } from '@crawlkit/options/process-gone';

/**
 * Profiles left by processes that died without closing their browser (SIGKILL, an out-of-memory kill, a test runner
 * killing a worker that timed out): Chromium exits with them, its profile (2 MB or more) stays in the temporary
 * directory. Each profile is named after the process that made it (`<prefix><pid>-XXXXXX`), so the next launch in
 * any process removes those of processes that are gone.
 */
export async function removeStaleProfiles(dir: string, prefix: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const named = new RegExp(`^${prefix}(\\d+)-`);
  let removed = 0;
  for (const name of names) {
    const owner = named.exec(name)?.[1];
    if (owner === undefined || !isProcessGone(Number(owner))) continue;
    const profile = join(dir, name);
    // A Chromium that outlived its owner (its owner was in another process namespace sharing this directory, or it
    // is still shutting down) holds the profile's lock naming its host and pid.
    if (await lockedByLiveChromium(profile)) continue;
    await rm(profile, { recursive: true, force: true, maxRetries: 2, retryDelay: 50 })
      .then(() => removed++)
      .catch(() => undefined);
  }
  return removed;
}

/** Chromium's `SingletonLock` is a symlink to `<host>-<pid>` while it runs; it removes it as it exits. */
async function lockedByLiveChromium(profile: string): Promise<boolean> {
  const target = await readlink(join(profile, 'SingletonLock')).catch(() => undefined);
  if (target === undefined) return false;
  const at = target.lastIndexOf('-');
  if (target.slice(0, at) !== hostname()) return true;
  return !isProcessGone(Number(target.slice(at + 1)));
}
