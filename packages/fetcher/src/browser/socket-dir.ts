import { readdir, readlink, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The directory of a profile's `SingletonSocket`: Chromium makes it in the temporary directory
 * (`org.chromium.Chromium.XXXXXX`, the socket and its cookie) and links the profile to it. Undefined when the profile
 * has no such link. Read it while Chromium runs: one that starts shutting down (its pipe closed) unlinks the profile
 * first and removes the directory last, so a SIGKILL in between left a directory nothing pointed to any more (2 of 15
 * launches under load).
 */
export async function findSocketDir(profile: string): Promise<string | undefined> {
  const socket = await readlink(join(profile, 'SingletonSocket')).catch(() => undefined);
  return socket !== undefined && basename(socket) === 'SingletonSocket' ? dirname(socket) : undefined;
}

/**
 * Removes a `SingletonSocket` directory `findSocketDir` found. Chromium removes it only when it exits on its own:
 * every browser we killed left one, an empty directory a launch (a test suite that starts Chromium in each file
 * leaves hundreds). Only a directory holding nothing but Chromium's `Singleton*` entries is removed.
 */
export async function removeSocketDir(dir: string | undefined): Promise<void> {
  if (dir === undefined) return;
  const names = await readdir(dir).catch(() => undefined);
  if (names === undefined || names.some((name) => !name.startsWith('Singleton'))) return;
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}
