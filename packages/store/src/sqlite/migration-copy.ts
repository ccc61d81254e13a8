/**
 * The copy of a store file taken before it is migrated to a newer schema (b58): the way back after an upgrade. It is
 * written beside the file, named for the schema it holds (`crawlkit.db.schema-12.bak`); only the latest such copy is
 * kept. An earlier crawlkit refuses the migrated file (`STORE_SCHEMA_TOO_NEW`), and names this copy to put back.
 */
import { chmodSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { StoreError } from '../errors.js';
import type { SqliteDatabase } from './database.js';
import { LATEST_VERSION, schemaVersion } from './migrations.js';

/** The name of the copy of `fileName` at schema `version`. */
export function migrationCopyName(fileName: string, version: number): string {
  return `${fileName}.schema-${version}.bak`;
}

/** The copies kept beside the store file at `path`, with the schema each holds. */
function migrationCopies(path: string): { path: string; version: number }[] {
  const prefix = `${basename(path)}.schema-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const match = name.startsWith(prefix) ? /^(\d+)\.bak$/.exec(name.slice(prefix.length)) : null;
    return match ? [{ path: join(dirname(path), name), version: Number(match[1]) }] : [];
  });
}

/**
 * The copy kept beside the store file at `path` that a crawlkit of schema `supported` can open (the highest schema at
 * most `supported`), or undefined when there is none.
 */
export function migrationCopyFor(path: string, supported: number): string | undefined {
  return migrationCopies(path)
    .filter((copy) => copy.version <= supported)
    .sort((a, b) => b.version - a.version)[0]?.path;
}

/**
 * Before a store file of an older schema is migrated: writes a copy of it (`VACUUM INTO`, a consistent snapshot
 * whatever other processes write meanwhile) beside it, named for its schema, then deletes the copies of other schemas.
 * Answers the copy's path, with the schema it holds, or undefined when nothing is migrated (a new file, the latest
 * schema, or a newer one, which the migration refuses). `STORE_MIGRATION_COPY_FAILED` when the copy cannot be written
 * (a full disk, a read-only directory): the file is then left as it was, unmigrated.
 */
export function keepCopyBeforeMigration(
  db: SqliteDatabase,
  path: string,
): { path: string; version: number } | undefined {
  const version = schemaVersion(db);
  if (version === 0 || version >= LATEST_VERSION) return undefined;
  const copy = join(dirname(path), migrationCopyName(basename(path), version));
  // One name per process: two processes opening the same old store both write their copy, and the last rename wins.
  const partial = `${copy}.${process.pid}.partial`;
  // SQLite writes the copy with a rollback journal beside it, left behind when the write fails (a full disk).
  const removePartial = () => {
    for (const suffix of ['', '-journal']) rmSync(`${partial}${suffix}`, { force: true });
  };
  try {
    removePartial();
    db.run('VACUUM INTO ?', partial);
    // It holds every page and job, as the store does.
    chmodSync(partial, 0o600);
    renameSync(partial, copy);
  } catch (error) {
    removePartial();
    throw new StoreError(
      'STORE_MIGRATION_COPY_FAILED',
      `The store ${path} has schema version ${version} and this crawlkit migrates it to ${LATEST_VERSION}, keeping a ` +
        `copy of it first (${copy}, the way back to the earlier crawlkit); the copy could not be written: ` +
        `${(error as Error).message}. Nothing was migrated and the file is as it was. Free space for a copy as large ` +
        'as the store, or make its directory writable, and run again; or migrate it without a copy (no way back to ' +
        'the earlier crawlkit): crawlkit --no-migration-copy, storeMigrationCopy: false (createSqliteStore: ' +
        'migrationCopy: false).',
      { cause: error },
    );
  }
  for (const other of migrationCopies(path)) {
    if (other.path !== copy) rmSync(other.path, { force: true });
  }
  return { path: copy, version };
}
