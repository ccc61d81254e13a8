/**
 * A store whose directory this process may not write (`chmod 555`, a volume mounted for another user): SQLite keeps
 * its write-ahead log beside the file, so opening failed with its own "attempt to write a readonly database", which
 * named neither the directory nor what to do (b58's Left). Now `STORE_OPEN_FAILED` says both, as for a directory that
 * cannot be made. The process that is refused is the built CLI run by root without the capability to override file
 * permissions (`setpriv`): what a user that is not root meets, while it can still read the code in a private folder.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { createSqliteStore } from '@crawlkit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CLI, ensureBuilt } from './cli-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'ck-store-read-only-'));
afterAll(() => {
  chmodSync(join(dir, 'store'), 0o700);
  rmSync(dir, { recursive: true, force: true });
});

/** Whether `setpriv` can drop the capabilities here (root, util-linux). */
function canDrop(): boolean {
  try {
    execFileSync('setpriv', ['--bounding-set=-dac_override,-dac_read_search', '--', 'true'], { stdio: 'ignore' });
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
}

beforeAll(() => ensureBuilt(), 180_000);

describe('a store in a directory this process may not write', () => {
  it.skipIf(!canDrop())('is refused with STORE_OPEN_FAILED naming the directory and what to do', async () => {
    const store = join(dir, 'store');
    mkdirSync(store);
    await (await createSqliteStore({ dir: store })).close();
    chmodSync(store, 0o555);
    const run = promisify(execFile)(
      'setpriv',
      [
        '--bounding-set=-dac_override,-dac_read_search',
        '--',
        process.execPath,
        CLI,
        'cache',
        'clear',
        '--store',
        store,
      ],
      { cwd: dir },
    );
    const failed = (await run.catch((error: unknown) => error)) as { code: number; stderr: string };
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toBe(
      `crawlkit: Cannot open the store in ${store}: this process may not write there (EACCES), and SQLite writes its ` +
        'log (-wal, -shm files) beside the store file. Point storeDir (--store, or CRAWLKIT_STORE in the environment ' +
        "of a command) at a directory this process can write, or use store: 'memory'. (STORE_OPEN_FAILED)\n",
    );
  });
});
