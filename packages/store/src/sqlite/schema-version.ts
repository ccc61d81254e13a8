import { existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

import { loadSqlite } from '@crawlkit/options/quiet-sqlite';

import { StoreCorruptError } from '../errors.js';
import { LATEST_VERSION } from './migrations.js';

export interface SqliteSchemaVersion {
  /** The file's schema version: 0 for a file with no crawlkit tables yet. */
  version: number;
  /** The latest version this code knows: a file below it is migrated when a store opens it, one above it refused. */
  latest: number;
}

/**
 * The schema version of the store file at `path`, read without migrating it, writing to it or waiting on its writers
 * (a read-only connection); undefined when there is no file. `STORE_CORRUPT` when it is not a SQLite database.
 */
export function sqliteSchemaVersion(path: string): SqliteSchemaVersion | undefined {
  if (!existsSync(path)) return undefined;
  let db: DatabaseSync | undefined;
  try {
    // Loaded here, as the store does: a static import fails an older Node before it is told what to install, and
    // prints Node 22's SQLite warning at import.
    db = new (loadSqlite().DatabaseSync)(path, { readOnly: true });
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    const row = table ? db.prepare('SELECT max(version) AS version FROM schema_migrations').get() : undefined;
    return { version: Number(row?.version ?? 0), latest: LATEST_VERSION };
  } catch (cause) {
    throw new StoreCorruptError(`${path} is not a crawlkit store: ${(cause as Error).message}`, { cause });
  } finally {
    db?.close();
  }
}
