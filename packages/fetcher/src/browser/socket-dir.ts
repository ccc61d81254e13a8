import { readdir, readlink, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Removes the directory of a profile's `SingletonSocket`. Chromium makes it in the temporary directory
 * (`org.chromium.Chromium.XXXXXX`, the socket and its cookie; the profile holds a link to it) and removes it only
 * when it exits on its own: every browser we killed left one there, an empty directory a launch (a test suite that
 * starts Chromium in each file leaves hundreds). Only a directory holding nothing but Chromium's `Singleton*` entries
 * is removed. Call before the profile itself is removed, while the link is there.
 */
export async function removeSocketDir(profile: string): Promise<void> {
  const socket = await readlink(join(profile, 'SingletonSocket')).catch(() => undefined);
  if (socket === undefined || basename(socket) !== 'SingletonSocket') return;
  const dir = dirname(socket);
  const names = await readdir(dir).catch(() => undefined);
  if (names === undefined || names.some((name) => !name.startsWith('Singleton'))) return;
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}
