import { mkdir, mkdtemp, readdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import { ISOLATED_ARGS } from '../../../../test/helpers/scrape.ts';
import { resolveChromiumPath } from '../index.js';
import { destroyBrowser, launchBrowser, type LaunchedBrowser } from './launch.js';
import { findSocketDir, removeSocketDir } from './socket-dir.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-socket-dir-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Launches Chromium with `dir` as its temporary directory, runs `before` on it, destroys it; what `dir` holds then. */
async function leftAfterDestroy(before: (launched: LaunchedBrowser) => Promise<void> = () => Promise.resolve()) {
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const launched = await launchBrowser({
      executablePath: resolveChromiumPath(),
      args: ISOLATED_ARGS,
      timeoutMs: 30_000,
    });
    expect((await readdir(dir)).some((name) => name.startsWith('org.chromium.'))).toBe(true);
    await before(launched);
    await destroyBrowser(launched, 1_000);
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  return readdir(dir);
}

it('leaves nothing in the temporary directory once a launched Chromium is destroyed', async () => {
  // Before: an empty org.chromium.Chromium.XXXXXX (its SingletonSocket's directory) stayed, one a launch
  expect(await leftAfterDestroy()).toEqual([]);
}, 60_000);

it('leaves nothing behind when Chromium had unlinked its profile from the socket directory', async () => {
  // What Chromium does first once its pipe closes and it shuts down: a SIGKILL before it also removed the directory
  // left one nothing pointed to (2 of 15 launches under load, when the link was read after the pipe closed).
  expect(
    await leftAfterDestroy(async (launched) => {
      await unlink(join(launched.userDataDir, 'SingletonSocket'));
    }),
  ).toEqual([]);
}, 60_000);

it("removes only a directory of Chromium's Singleton entries", async () => {
  const make = async (name: string, files: string[]) => {
    const socketDir = join(dir, name);
    await mkdir(socketDir);
    for (const file of files) await writeFile(join(socketDir, file), '');
    const profile = join(dir, `${name}-profile`);
    await mkdir(profile);
    await symlink(join(socketDir, 'SingletonSocket'), join(profile, 'SingletonSocket'));
    await removeSocketDir(await findSocketDir(profile));
    return (await readdir(dir)).includes(name);
  };
  expect(await make('org.chromium.Chromium.a1B2c3', ['SingletonSocket', 'SingletonCookie'])).toBe(false);
  expect(await make('someone-else', ['SingletonSocket', 'notes.txt'])).toBe(true);
  const noLink = join(dir, 'plain-profile');
  await mkdir(noLink);
  expect(await findSocketDir(noLink)).toBeUndefined(); // no link: nothing to remove
});
