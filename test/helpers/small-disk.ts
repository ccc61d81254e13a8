/**
 * A small file system that a test can fill and free: a tmpfs of a few MB mounted on a temporary directory (root
 * only). A watchdog unmounts it if the test process dies first. `smallDisk()` resolves to undefined, after a visible
 * message, where it cannot mount one.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Bytes free on it now. */
  free(): number;
  /** Writes a filler file that leaves about `leaveBytes` free. */
  fill(leaveBytes: number): void;
  /** Deletes the filler. */
  release(): void;
  unmount(): void;
}

export function smallDisk(sizeMb: number): SmallDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'ck-small-disk-'));
  try {
    if (process.getuid?.() !== 0) throw new Error('not root');
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`\n[small-disk] SKIPPED: cannot mount a ${sizeMb} MB tmpfs (${(error as Error).message})\n`);
    return undefined;
  }
  spawn(
    'sh',
    [
      '-c',
      'while kill -0 "$1" 2>/dev/null; do sleep 1; done; umount -l "$2" 2>/dev/null; rmdir "$2" 2>/dev/null',
      'ck-small-disk-watchdog',
      String(process.pid),
      dir,
    ],
    { detached: true, stdio: 'ignore' },
  ).unref();
  const filler = join(dir, 'filler');
  const free = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir: join(dir, 'store'),
    free,
    fill: (leaveBytes) => writeFileSync(filler, Buffer.alloc(Math.max(0, free() - leaveBytes))),
    release: () => rmSync(filler, { force: true }),
    unmount: () => {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
