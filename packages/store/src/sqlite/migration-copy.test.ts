/**
 * The way back after an upgrade (b58): a store file one schema behind, made by the migrations themselves with a row in
 * it, is copied beside itself (`crawlkit.db.schema-N.bak`) before it is migrated; only the latest copy is kept; a copy
 * that cannot be written stops the migration with the file untouched; and a file a newer crawlkit migrated is refused
 * naming the copy to put back.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { afterAll, describe, expect, it } from 'vitest';

import { Lifecycle } from '../lifecycle.js';
import { SqliteDatabase } from './database.js';
import { LATEST_VERSION, migrate } from './migrations.js';
import { createSqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'ck-migration-copy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const BEHIND = LATEST_VERSION - 1;

/** A store directory whose file has schema `BEHIND`, holding one change-tracking snapshot. */
function storeBehind(): { dir: string; file: string } {
  const dir = join(root, `s${n++}`);
  mkdirSync(dir);
  const file = join(dir, 'crawlkit.db');
  const raw = new DatabaseSync(file);
  // In WAL mode, as every store a crawlkit opened is.
  raw.exec('PRAGMA journal_mode = WAL');
  migrate(new SqliteDatabase(raw, new Lifecycle()), BEHIND);
  raw
    .prepare("INSERT INTO history (url, tag, scraped_at, value) VALUES ('//example.test/a', '', 1, ?)")
    .run('{"v":1,"markdown":"# A","statusCode":200}');
  raw.close();
  return { dir, file };
}

function schemaOf(file: string): number {
  const raw = new DatabaseSync(file, { readOnly: true });
  const row = raw.prepare('SELECT max(version) AS version FROM schema_migrations').get() as { version: number };
  raw.close();
  return row.version;
}

const md5 = (file: string) => createHash('md5').update(readFileSync(file)).digest('hex');

describe('the copy of a store file taken before its migration', () => {
  it('is written beside the file, named for its schema, holding what it held; the opening says so once', async () => {
    const { dir, file } = storeBehind();
    const store = await createSqliteStore({ dir });
    const copy = join(dir, `crawlkit.db.schema-${BEHIND}.bak`);
    expect(store.warnings).toEqual([
      { code: 'STORE_MIGRATED', copy, message: expect.stringContaining(`put that copy in its place`) },
    ]);
    expect(store.warnings[0]!.message).toContain(`from schema version ${BEHIND} to ${LATEST_VERSION}`);
    expect((await store.history.latest('//example.test/a', ''))?.value).toContain('# A');
    await store.close();

    expect(schemaOf(file)).toBe(LATEST_VERSION);
    expect(schemaOf(copy)).toBe(BEHIND);
    const raw = new DatabaseSync(copy, { readOnly: true });
    expect(raw.prepare('SELECT value FROM history').all()).toEqual([
      { value: '{"v":1,"markdown":"# A","statusCode":200}' },
    ]);
    raw.close();
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((name) => name.includes('.partial'))).toEqual([]);

    // The next opening migrates nothing: no copy, no warning.
    const again = await createSqliteStore({ dir });
    expect(again.warnings).toEqual([]);
    await again.close();
  });

  it('keeps only the latest copy', async () => {
    const { dir } = storeBehind();
    writeFileSync(join(dir, 'crawlkit.db.schema-3.bak'), 'an older copy');
    writeFileSync(join(dir, 'other.db.schema-3.bak'), 'another store');
    await (await createSqliteStore({ dir })).close();
    expect(
      readdirSync(dir)
        .filter((name) => name.endsWith('.bak'))
        .sort(),
    ).toEqual([`crawlkit.db.schema-${BEHIND}.bak`, 'other.db.schema-3.bak']);
  });

  it('that cannot be written stops the migration with STORE_MIGRATION_COPY_FAILED, the file untouched', async () => {
    const { dir, file } = storeBehind();
    // Something the copy cannot replace is in its place.
    const inTheWay = join(dir, `crawlkit.db.schema-${BEHIND}.bak`);
    mkdirSync(inTheWay);
    writeFileSync(join(inTheWay, 'x'), 'x');
    const before = md5(file);
    const opened = createSqliteStore({ dir });
    await expect(opened).rejects.toMatchObject({ code: 'STORE_MIGRATION_COPY_FAILED' });
    const message = ((await opened.catch((error: unknown) => error)) as Error).message;
    expect(message).toContain(`has schema version ${BEHIND} and this crawlkit migrates it to ${LATEST_VERSION}`);
    expect(message).toContain('Nothing was migrated and the file is as it was');
    expect(md5(file)).toBe(before);
    expect(schemaOf(file)).toBe(BEHIND);
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
    expect(readdirSync(dir).filter((name) => name.includes('.partial'))).toEqual([]);

    // Once the way is clear, the same file migrates.
    rmSync(inTheWay, { recursive: true });
    await (await createSqliteStore({ dir })).close();
    expect(schemaOf(file)).toBe(LATEST_VERSION);
  });

  it('is not taken with migrationCopy: false, which migrates where a copy cannot be written, and says so', async () => {
    const { dir, file } = storeBehind();
    const inTheWay = join(dir, `crawlkit.db.schema-${BEHIND}.bak`);
    mkdirSync(inTheWay);
    const refused = (await createSqliteStore({ dir }).catch((error: unknown) => error)) as Error;
    expect(refused.message).toContain('migrate it without a copy (no way back to the earlier crawlkit)');
    expect(refused.message).toContain('createSqliteStore: migrationCopy: false');

    const store = await createSqliteStore({ dir, migrationCopy: false });
    expect(store.warnings).toEqual([
      {
        code: 'STORE_MIGRATED',
        message:
          `The store ${file} was migrated from schema version ${BEHIND} to ${LATEST_VERSION}: an earlier crawlkit ` +
          'now refuses it. No copy of it was kept (migrationCopy: false): there is no way back to the earlier crawlkit.',
      },
    ]);
    expect((await store.history.latest('//example.test/a', ''))?.value).toContain('# A');
    await store.close();
    expect(schemaOf(file)).toBe(LATEST_VERSION);
    expect(readdirSync(dir).filter((name) => name.endsWith('.bak') || name.includes('.partial'))).toEqual([
      `crawlkit.db.schema-${BEHIND}.bak`,
    ]);
    expect(readdirSync(inTheWay)).toEqual([]);
  });

  it('on a full disk stops the migration, the file untouched and no partial copy left', async (context) => {
    // A real full disk: a small tmpfs (root, where mounting is allowed), the store in it, the rest filled.
    const mountPoint = join(root, 'full');
    mkdirSync(mountPoint);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    } catch {
      context.skip();
    }
    try {
      const { file } = storeBehind();
      // Larger than SQLite's page cache (2 MB), so that writing the copy spills to its journal before the disk fills.
      const raw = new DatabaseSync(file);
      raw.exec(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) ' +
          "INSERT INTO history (url, tag, scraped_at, value) SELECT 'u' || i, '', 1, hex(randomblob(20000)) FROM n",
      );
      raw.close();
      const dir = join(mountPoint, 'store');
      mkdirSync(dir);
      copyFileSync(file, join(dir, 'crawlkit.db'));
      const free = statfsSync(mountPoint);
      writeFileSync(join(mountPoint, 'filler'), Buffer.alloc(free.bavail * free.bsize - 4 * 1024 ** 2));
      const before = md5(join(dir, 'crawlkit.db'));
      await expect(createSqliteStore({ dir })).rejects.toMatchObject({
        code: 'STORE_MIGRATION_COPY_FAILED',
        message: expect.stringContaining('the copy could not be written: database or disk is full'),
      });
      expect(md5(join(dir, 'crawlkit.db'))).toBe(before);
      expect(schemaOf(join(dir, 'crawlkit.db'))).toBe(BEHIND);
      expect(readdirSync(dir).filter((name) => name.includes('.bak'))).toEqual([]);
    } finally {
      execFileSync('umount', [mountPoint]);
    }
  });

  it('is named by STORE_SCHEMA_TOO_NEW when a newer crawlkit migrated the file', async () => {
    const { dir, file } = storeBehind();
    await (await createSqliteStore({ dir })).close();
    // A crawlkit one schema on took its copy of this version's file, then migrated it.
    rmSync(join(dir, `crawlkit.db.schema-${BEHIND}.bak`));
    copyFileSync(file, join(dir, `crawlkit.db.schema-${LATEST_VERSION}.bak`));
    const raw = new DatabaseSync(file);
    raw.prepare("INSERT INTO schema_migrations VALUES (?, 'a newer one', 0)").run(LATEST_VERSION + 1);
    raw.close();

    const refused = (await createSqliteStore({ dir }).catch((error: unknown) => error)) as Error;
    expect(refused).toMatchObject({
      code: 'STORE_SCHEMA_TOO_NEW',
      copy: join(dir, `crawlkit.db.schema-${LATEST_VERSION}.bak`),
    });
    expect(refused.message).toContain(
      `put back the copy it took before migrating, ${join(dir, `crawlkit.db.schema-${LATEST_VERSION}.bak`)}`,
    );

    // Without a copy, the message says what it said.
    rmSync(join(dir, `crawlkit.db.schema-${LATEST_VERSION}.bak`));
    const bare = (await createSqliteStore({ dir }).catch((error: unknown) => error)) as Error;
    expect(bare.message).toContain('put back the copy of the store taken before the upgrade');
  });
});
