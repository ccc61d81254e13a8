import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import { ISOLATED_ARGS } from '../../../../test/helpers/scrape.ts';
import { resolveChromiumPath } from '../index.js';
import { destroyBrowser, launchBrowser } from './launch.js';
import { removeSocketDir } from './socket-dir.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-socket-dir-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('leaves nothing in the temporary directory once a launched Chromium is destroyed', async () => {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const launched = await launchBrowser({
      executablePath: resolveChromiumPath(),
      args: ISOLATED_ARGS,
      timeoutMs: 30_000,
    });
    expect((await readdir(dir)).some((name) => name.startsWith('org.chromium.'))).toBe(true);
    await destroyBrowser(launched, 1_000);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
  // Before: an empty org.chromium.Chromium.XXXXXX (its SingletonSocket's directory) stayed, one a launch
  expect(await readdir(dir)).toEqual([]);
}, 60_000);

it("removes only a directory of Chromium's Singleton entries", async () => {
  const make = async (name: string, files: string[]) => {
    const socketDir = join(dir, name);
    await mkdir(socketDir);
    for (const file of files) await writeFile(join(socketDir, file), '');
    const profile = join(dir, `${name}-profile`);
    await mkdir(profile);
    await symlink(join(socketDir, 'SingletonSocket'), join(profile, 'SingletonSocket'));
    await removeSocketDir(profile);
    return (await readdir(dir)).includes(name);
  };
  expect(await make('org.chromium.Chromium.a1B2c3', ['SingletonSocket', 'SingletonCookie'])).toBe(false);
  expect(await make('someone-else', ['SingletonSocket', 'notes.txt'])).toBe(true);
  const noLink = join(dir, 'plain-profile');
  await mkdir(noLink);
  await removeSocketDir(noLink); // no link: nothing to do
});
