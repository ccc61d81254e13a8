import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import { removeStaleProfiles, UNOWNED_PROFILE_AGE_MS } from './stale-profiles.js';

const PREFIX = 'crawlkit-chromium-';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-stale-profiles-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A pid that named a process of this host a moment ago and names none now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

/** Makes a profile directory, with Chromium's lock naming `lock` when given, last changed `ageMs` ago. */
async function profile(name: string, ageMs: number, lock?: string): Promise<string> {
  const path = join(dir, name);
  await mkdir(path);
  if (lock !== undefined) await symlink(lock, join(path, 'SingletonLock'));
  const at = (Date.now() - ageMs) / 1000;
  await utimes(path, at, at);
  return path;
}

it('removes the profiles of the old name format (no pid) once their Chromium is gone and they are a minute old', async () => {
  const old = UNOWNED_PROFILE_AGE_MS + 5_000;
  const dead = await deadPid();
  const unlocked = await profile(`${PREFIX}a1B2c3`, old);
  const lockedByDead = await profile(`${PREFIX}Zz9Yy8`, old, `${hostname()}-${dead}`);
  // A Chromium still running: this process stands for it.
  const lockedByLive = await profile(`${PREFIX}Qq7Ww6`, old, `${hostname()}-${process.pid}`);
  const otherHost = await profile(`${PREFIX}Ee5Rr4`, old, `another-host-${dead}`);
  // Just made by an older build still running, whose Chromium has not taken the lock yet.
  const fresh = await profile(`${PREFIX}Tt3Uu2`, 1_000);
  // Not a profile of ours: another name after the prefix.
  const foreign = await profile(`${PREFIX}cache`, old);

  // Before: only `<prefix><pid>-` names were looked at, and these stayed in the temporary directory for good.
  expect(await removeStaleProfiles(dir, PREFIX)).toBe(2);
  expect(existsSync(unlocked)).toBe(false);
  expect(existsSync(lockedByDead)).toBe(false);
  for (const kept of [lockedByLive, otherHost, fresh, foreign]) expect(existsSync(kept), kept).toBe(true);
});

it('removes a gone process’s profile of the current format at once, and keeps a live one’s', async () => {
  const dead = await deadPid();
  const gone = await profile(`${PREFIX}${dead}-a1B2c3`, 0);
  // Its Chromium's SingletonSocket, in a directory of the temporary directory that the profile links to
  const socketDir = join(dir, 'org.chromium.Chromium.g7H8i9');
  await mkdir(socketDir);
  await writeFile(join(socketDir, 'SingletonSocket'), '');
  await symlink(join(socketDir, 'SingletonSocket'), join(gone, 'SingletonSocket'));
  const live = await profile(`${PREFIX}${process.pid}-d4E5f6`, UNOWNED_PROFILE_AGE_MS * 2);
  expect(await removeStaleProfiles(dir, PREFIX)).toBe(1);
  expect(existsSync(gone)).toBe(false);
  expect(existsSync(socketDir)).toBe(false);
  expect(existsSync(live)).toBe(true);
});
