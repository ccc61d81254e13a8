import { hostname } from 'node:os';
import { readdir, readlink, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { isProcessGone } from '@crawlkit/options/process-gone';

import { findSocketDir, removeSocketDir } from './socket-dir.js';

/**
 * How long a profile of the old name format (no pid, made by builds before 2026-12-01) must have gone unchanged before
 * it is removed without a lock: an older build still running on the machine makes its profile a moment before its
 * Chromium takes the lock, and one minute covers that start many times over.
 */
export const UNOWNED_PROFILE_AGE_MS = 60_000;

/**
 * Profiles left by processes that died without closing their browser (SIGKILL, an out-of-memory kill, a test runner
 * killing a worker that timed out): Chromium exits with them, its profile (2 MB or more) stays in the temporary
 * directory. Each profile is named after the process that made it (`<prefix><pid>-XXXXXX`), so the next launch in
 * any process removes those of processes that are gone. A profile of the old format (`<prefix>XXXXXX`, no pid) has
 * no owner to ask: it goes once its Chromium is gone too (no live `SingletonLock`) and it has not changed for
 * `UNOWNED_PROFILE_AGE_MS`. Returns how many were removed.
 */
export async function removeStaleProfiles(dir: string, prefix: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const named = new RegExp(`^${prefix}(\\d+)-`);
  // mkdtemp's six letters and digits, with nothing after them.
  const unowned = new RegExp(`^${prefix}[A-Za-z0-9]{6}$`);
  let removed = 0;
  for (const name of names) {
    const profile = join(dir, name);
    const owner = named.exec(name)?.[1];
    if (owner !== undefined) {
      if (!isProcessGone(Number(owner))) continue;
    } else if (!unowned.test(name) || !(await unchangedFor(profile, UNOWNED_PROFILE_AGE_MS))) continue;
    // A Chromium that outlived its owner (its owner was in another process namespace sharing this directory, or it
    // is still shutting down) holds the profile's lock naming its host and pid.
    if (await lockedByLiveChromium(profile)) continue;
    await removeSocketDir(await findSocketDir(profile));
    await rm(profile, { recursive: true, force: true, maxRetries: 2, retryDelay: 50 })
      .then(() => removed++)
      .catch(() => undefined);
  }
  return removed;
}

/** Whether `path` is a directory whose entries have not changed for `ms`. */
async function unchangedFor(path: string, ms: number): Promise<boolean> {
  const stats = await stat(path).catch(() => undefined);
  return stats !== undefined && stats.isDirectory() && Date.now() - stats.mtimeMs >= ms;
}

/** Chromium's `SingletonLock` is a symlink to `<host>-<pid>` while it runs; it removes it as it exits. */
async function lockedByLiveChromium(profile: string): Promise<boolean> {
  const target = await readlink(join(profile, 'SingletonLock')).catch(() => undefined);
  if (target === undefined) return false;
  const at = target.lastIndexOf('-');
  if (target.slice(0, at) !== hostname()) return true;
  return !isProcessGone(Number(target.slice(at + 1)));
}
