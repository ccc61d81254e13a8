import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import { removeShmLeftovers } from './shm-leftovers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ck-shm-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("removes Chromium's shared memory files made since the launch, and nothing else", async () => {
  const since = Date.now();
  writeFileSync(join(dir, '.org.chromium.Chromium.aB3dE9'), 'x');
  // Before the launch: another browser's, not this one's to judge.
  writeFileSync(join(dir, '.org.chromium.Chromium.Old123'), 'x');
  utimesSync(join(dir, '.org.chromium.Chromium.Old123'), new Date(since - 60_000), new Date(since - 60_000));
  // Chromium's socket directory (removed elsewhere, only when it holds its Singleton entries) and other names.
  writeFileSync(join(dir, 'org.chromium.Chromium.xY12zz'), 'x');
  writeFileSync(join(dir, '.org.chromium.Chromium.toolong'), 'x');
  writeFileSync(join(dir, 'notes.txt'), 'x');
  await removeShmLeftovers(dir, since);
  expect(readdirSync(dir).sort()).toEqual([
    '.org.chromium.Chromium.Old123',
    '.org.chromium.Chromium.toolong',
    'notes.txt',
    'org.chromium.Chromium.xY12zz',
  ]);
});

it('answers for a temporary directory that is not there any more', async () => {
  await expect(removeShmLeftovers(join(dir, 'missing'), Date.now())).resolves.toBeUndefined();
});

it('leaves a file a live process still holds open: a Chromium stalled between making it and unlinking it', async () => {
  const since = Date.now();
  const name = '.org.chromium.Chromium.Live12';
  // Makes the file, holds it open and says so; never unlinks it (as a Chromium descheduled past the second scan).
  const holder = spawn(
    process.execPath,
    [
      '-e',
      "require('node:fs').openSync(process.argv[1], 'wx'); console.log('open'); setInterval(() => {}, 1000);",
      join(dir, name),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await once(holder.stdout, 'data');
    await removeShmLeftovers(dir, since);
    expect(readdirSync(dir)).toEqual([name]);
  } finally {
    holder.kill('SIGKILL');
  }
  await once(holder, 'exit');
  // Its process gone, the file is a leftover.
  await removeShmLeftovers(dir, since);
  expect(readdirSync(dir)).toEqual([]);
});
