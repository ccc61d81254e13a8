import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where compiled filter engines are kept between processes, by the inputs they were compiled from. */
export interface EngineCache {
  /** The bytes stored under `key`, or `undefined` (never stored, or unreadable). */
  read(key: readonly string[]): Promise<Uint8Array | undefined>;
  /** Stores `bytes` under `key`; a failure to write is not an error (the engine is compiled again next time). */
  write(key: readonly string[], bytes: Uint8Array): Promise<void>;
}

/**
 * A cache in a directory only this user can use (`<tmpdir>/crawlkit-<uid>/adblock`, mode 0700). The compiled engine
 * is derived from a filter list installed on this machine and never leaves it. A directory owned by another user is
 * not used: a planted file would decide which requests are blocked.
 */
export function compiledEngineCache(dir = defaultDir()): EngineCache {
  const fileOf = (key: readonly string[]) => {
    const hash = createHash('sha256');
    for (const part of key) hash.update(part).update('\0');
    return join(dir, `${hash.digest('hex').slice(0, 32)}.engine`);
  };
  let usable: Promise<boolean> | undefined;
  const ready = () => (usable ??= ownedDirectory(dir));
  return {
    async read(key) {
      if (!(await ready())) return undefined;
      return readFile(fileOf(key)).then(
        (bytes) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        () => undefined,
      );
    },
    async write(key, bytes) {
      if (!(await ready())) return;
      const file = fileOf(key);
      // Another process may be writing the same entry: each writes its own file and renames it into place.
      const temp = `${file}.${randomUUID()}.tmp`;
      try {
        await writeFile(temp, bytes, { mode: 0o600 });
        await rename(temp, file);
      } catch {
        await rm(temp, { force: true });
      }
    },
  };
}

function defaultDir(): string {
  const uid = process.getuid?.();
  return join(tmpdir(), uid === undefined ? 'crawlkit' : `crawlkit-${uid}`, 'adblock');
}

/** Creates `dir` (and its parent) as this user's alone; false when either is another user's or open to others. */
async function ownedDirectory(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    for (const path of [dirname(dir), dir]) {
      const info = await stat(path);
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o077) !== 0) return false;
    }
    return true;
  } catch {
    return false;
  }
}
