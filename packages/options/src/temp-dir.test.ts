import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { makeDirLevel, tempDirProblem } from './temp-dir.js';

const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });
const dir = mkdtempSync(join(tmpdir(), 'ck-temp-dir-words-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempDirProblem', () => {
  it('names the temporary directory, why in words with the code, and TMPDIR', () => {
    expect(tempDirProblem("Chromium's profile", errno('EROFS'))).toBe(
      `Chromium's profile goes in the temporary directory ${tmpdir()}, which is on a read-only file system (EROFS). ` +
        'Set TMPDIR to a directory this process can write (os.tmpdir() reads it).',
    );
  });

  it("says a folder is not there when its parent refused to make it (EACCES), and a folder of crawlkit's as such", () => {
    const gone = join(dir, 'gone');
    expect(tempDirProblem('The recording', errno('EACCES'), gone)).toContain(
      `goes in ${gone} (in the temporary directory), which is not there, and this process may not make it (EACCES).`,
    );
    expect(tempDirProblem('The recording', errno('EACCES'), dir)).toContain(
      'which this process may not write (EACCES)',
    );
  });

  it('keeps the message of an error it has no words for', () => {
    expect(tempDirProblem('The recording', errno('EIO'), dir)).toContain('which EIO: failed (EIO).');
  });
});

describe('makeDirLevel', () => {
  it('makes a missing folder whose parent is there, and takes one that is there', async () => {
    await makeDirLevel(join(dir, 'made'));
    await makeDirLevel(join(dir, 'made'));
    expect(statSync(join(dir, 'made')).isDirectory()).toBe(true);
  });

  it('refuses a folder whose parent is missing (ENOENT) rather than make the tree', async () => {
    await expect(makeDirLevel(join(dir, 'no', 'such'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(!existsSync('/proc/self'))(
    'settles below /proc, where a recursive mkdir never does',
    async () => {
      await expect(makeDirLevel('/proc/ck-no-such/tmp')).rejects.toMatchObject({ code: 'ENOENT' });
    },
    5_000,
  );
});
