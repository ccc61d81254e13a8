/**
 * `crawlkit store info` says which crawlkit a store on disk belongs to (its schema version against the one this
 * crawlkit writes) and what an upgrade or a roll-back does to it, without migrating it: a store of an older crawlkit
 * is still of that version afterwards, so the older one can still open it. The older schema is made from the
 * migrations themselves (never edited once released), as crawlkit of 2026-11-29 (2819908, schema 9) left it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LATEST_VERSION, MIGRATIONS } from '../packages/store/src/sqlite/migrations.ts';
import { ensureBuilt, runCli } from './cli-helpers.ts';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-store-info-'));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store directory whose database has the schema of `version`. */
function storeAt(name: string, version: number): string {
  const storeDir = join(dir, name);
  mkdirSync(storeDir);
  const db = new DatabaseSync(join(storeDir, 'crawlkit.db'));
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= version)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(migration.version, migration.description);
  }
  if (version > LATEST_VERSION) db.prepare("INSERT INTO schema_migrations VALUES (?, 'a newer one', 0)").run(version);
  db.close();
  return storeDir;
}

function versionOf(storeDir: string): number {
  const db = new DatabaseSync(join(storeDir, 'crawlkit.db'), { readOnly: true });
  try {
    return Number(db.prepare('SELECT max(version) AS version FROM schema_migrations').get()!.version);
  } finally {
    db.close();
  }
}

const env = { CRAWLKIT_STORE: '' };

describe('crawlkit store info', () => {
  it("names an older store's version and what opening it does, and leaves it at that version", async () => {
    const store = storeAt('old', 9);
    const info = await runCli(['store', 'info', '--store', store], { cwd: dir, env });
    expect(info.code).toBe(0);
    expect(info.stdout).toContain(`schema:    9 (this crawlkit writes ${LATEST_VERSION}: the next command that opens`);
    expect(info.stdout).toContain(
      'after a copy of the file as it is (crawlkit.db.schema-9.bak beside it: the way back)',
    );
    const json = await runCli(['store', 'info', '--store', store, '--json'], { cwd: dir, env });
    expect(JSON.parse(json.stdout)).toMatchObject({ schemaVersion: 9, latestSchemaVersion: LATEST_VERSION });
    expect(versionOf(store)).toBe(9);
  });

  it("says a newer crawlkit's store is refused, and a store of its own is its own", async () => {
    const newer = await runCli(['store', 'info', '--store', storeAt('newer', LATEST_VERSION + 1)], { cwd: dir, env });
    expect(newer.stdout).toContain(
      `schema:    ${LATEST_VERSION + 1} (written by a newer crawlkit: this one reads up to`,
    );
    expect(newer.stdout).toContain('STORE_SCHEMA_TOO_NEW');
    const own = await runCli(['store', 'info', '--store', storeAt('own', LATEST_VERSION)], { cwd: dir, env });
    expect(own.stdout).toContain(`schema:    ${LATEST_VERSION} (this crawlkit's)`);
  });

  it('makes no store where there is none', async () => {
    const missing = join(dir, 'missing');
    const info = await runCli(['store', 'info', '--store', missing], { cwd: dir, env });
    expect(info).toMatchObject({ code: 0, stdout: `there is no store at ${missing}\n` });
  });
});
