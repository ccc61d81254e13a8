import { existsSync } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';

const REASONS: Record<string, string> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'has a file, not a directory, in its path',
  EEXIST: 'has a file, not a directory, in its path',
  EACCES: 'this process may not write',
  EPERM: 'this process may not write',
  EROFS: 'is on a read-only file system',
  ENOSPC: 'is on a full disk',
};

/** Why `error` kept a directory from taking a file: its code in words (`does not exist`), else its message. */
export function unwritableDirReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const why = REASONS[code] ?? (error instanceof Error ? error.message : String(error));
  return `${why}${code ? ` (${code})` : ''}`;
}

/**
 * What a failure to write `what` in `dir`, the system's temporary directory or a folder of crawlkit's in it, says:
 * the folder, why, and the variable that moves it (a container or a service manager may set TMPDIR to a folder that
 * is not there, or another user may own a folder of the same name). The one wording for every file crawlkit keeps
 * there (Chromium's profile, a memory store's recordings).
 */
export function tempDirProblem(what: string, error: unknown, dir: string = tmpdir()): string {
  const where = dir === tmpdir() ? `the temporary directory ${dir}` : `${dir} (in the temporary directory)`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  // A folder that is not there gets EACCES from its parent: this process may not make it.
  const unmade = (code === 'EACCES' || code === 'EPERM') && !existsSync(dir);
  const why = unmade ? `is not there, and this process may not make it (${code})` : unwritableDirReason(error);
  return (
    `${what} goes in ${where}, which ${why}. ` +
    'Set TMPDIR to a directory this process can write (os.tmpdir() reads it).'
  );
}

/**
 * Makes `dir` when it is not there, one level only: the temporary directory a container's TMPDIR names but nobody
 * made, or a folder of crawlkit's in it. Not `recursive`: Node's recursive `mkdir` never settles below /proc or /sys,
 * and a TMPDIR whose parent is missing is a typo to tell (ENOENT), not a tree to make. Rejects as `mkdir` does.
 * `mode` (before the umask) is for a folder made here only; an existing one keeps its own.
 */
export async function makeDirLevel(dir: string, mode?: number): Promise<void> {
  await mkdir(dir, mode === undefined ? undefined : { mode }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
}

/**
 * This user's tag in the name of a folder of crawlkit's in the shared temporary directory: the uid, or on Windows
 * (which has none) the user name with anything but letters, digits, `.`, `_` and `-` made `_`.
 */
export function userTag(): string {
  const uid = process.getuid?.();
  if (uid !== undefined) return String(uid);
  return userInfo().username.replace(/[^\w.-]/g, '_');
}

/**
 * Why `dir`, a folder of crawlkit's in the temporary directory that another user could have made first, is not this
 * user's own, or undefined when it is: a symbolic link (planted to send the files elsewhere) or a folder owned by
 * another uid. Uses `lstat`, so a link is told as one, not followed.
 */
export async function notOwnedReason(dir: string): Promise<string | undefined> {
  const info = await lstat(dir);
  if (info.isSymbolicLink()) return 'is a symbolic link, not a folder of its own';
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid)
    return `belongs to another user (uid ${info.uid}, this process runs as ${uid})`;
  return undefined;
}
