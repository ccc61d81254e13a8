/**
 * The way back after an upgrade, from the command line (b58): a store file one schema behind (made by the migrations
 * themselves, holding a page scraped with change tracking) is copied beside itself before the first command migrates
 * it, which says so once on stderr; the function API tells it as a `warning` event (`STORE_MIGRATED`). The copy is
 * what an earlier crawlkit opens: put in the file's place, it answers as it did before the upgrade.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LATEST_VERSION, MIGRATIONS } from '../packages/store/src/sqlite/migrations.ts';
import { ensureBuilt, runCli } from './cli-helpers.ts';

const BEHIND = LATEST_VERSION - 1;
let dir: string;
let server: Server;
let url: string;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-migration-copy-'));
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body><main><h1>Kept</h1><p>A page kept in the store before the upgrade.</p></main></body></html>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/kept`;
}, 180_000);

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(dir, { recursive: true, force: true });
});

/** A store directory whose file a crawlkit one schema behind this one left, with one change-tracking snapshot. */
function storeBehind(name: string): string {
  const storeDir = join(dir, name);
  mkdirSync(storeDir);
  const db = new DatabaseSync(join(storeDir, 'crawlkit.db'));
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= BEHIND)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(migration.version, migration.description);
  }
  db.prepare("INSERT INTO history (url, tag, scraped_at, value) VALUES (?, '', ?, ?)").run(
    url.replace(/^http:/, ''),
    Date.now() - 60_000,
    JSON.stringify({ v: 1, markdown: '# Kept\n\nA page kept in the store before the upgrade.', statusCode: 200 }),
  );
  db.close();
  return storeDir;
}

const schemaOf = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  const { version } = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as { version: number };
  db.close();
  return version;
};

describe('the copy taken before a migration', () => {
  it('the CLI says once on stderr where the copy is; put back, it holds the store as it was', async () => {
    const store = storeBehind('cli');
    const copy = join(store, `crawlkit.db.schema-${BEHIND}.bak`);
    const args = ['scrape', url, '--format', 'markdown,changeTracking', '--json', '--store', store];
    const first = await runCli(args, { cwd: dir, env: { CRAWLKIT_STORE: '' } });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(
      `crawlkit: warning: The store ${join(store, 'crawlkit.db')} was migrated from schema version ${BEHIND} to ` +
        `${LATEST_VERSION}`,
    );
    expect(first.stderr).toContain(`A copy of it as it was is kept at ${copy}`);
    expect(first.stderr.match(/was migrated/g)).toHaveLength(1);
    expect(JSON.parse(first.stdout).data.changeTracking.changeStatus).toBe('same');
    expect(schemaOf(join(store, 'crawlkit.db'))).toBe(LATEST_VERSION);
    expect(schemaOf(copy)).toBe(BEHIND);

    const second = await runCli(args, { cwd: dir, env: { CRAWLKIT_STORE: '' } });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('migrated');

    // The roll-back: the copy in the file's place is the store of schema BEHIND, with its snapshot.
    rmSync(join(store, 'crawlkit.db'));
    for (const side of ['-wal', '-shm']) rmSync(join(store, `crawlkit.db${side}`), { force: true });
    renameSync(copy, join(store, 'crawlkit.db'));
    expect(schemaOf(join(store, 'crawlkit.db'))).toBe(BEHIND);
    const db = new DatabaseSync(join(store, 'crawlkit.db'), { readOnly: true });
    expect(db.prepare('SELECT count(*) AS n FROM history').get()).toEqual({ n: 1 });
    db.close();
  });

  it('the function API tells it as a STORE_MIGRATED warning event, naming the copy', async () => {
    const store = storeBehind('api');
    const ck = new Crawlkit({ storeDir: store, engine: 'http' });
    const warnings: { code: string; message: string }[] = [];
    ck.on('warning', (warning) => warnings.push(warning));
    const page = await ck.scrape({ url, formats: ['markdown', { type: 'changeTracking' }] });
    await ck.close();
    expect(page.success && page.data.changeTracking?.changeStatus).toBe('same');
    expect(warnings).toEqual([
      {
        code: 'STORE_MIGRATED',
        message: expect.stringContaining(`kept at ${join(store, `crawlkit.db.schema-${BEHIND}.bak`)}`),
      },
    ]);
    expect(existsSync(join(store, `crawlkit.db.schema-${BEHIND}.bak`))).toBe(true);
  });

  it('--no-migration-copy and storeMigrationCopy: false migrate without a copy and say there is no way back', async () => {
    const store = storeBehind('no-copy-cli');
    const args = ['scrape', url, '--format', 'markdown', '--json', '--store', store, '--no-migration-copy'];
    const cli = await runCli(args, { cwd: dir, env: { CRAWLKIT_STORE: '' } });
    expect(cli.code).toBe(0);
    expect(cli.stderr).toContain(
      `crawlkit: warning: The store ${join(store, 'crawlkit.db')} was migrated from schema version ${BEHIND} to ` +
        `${LATEST_VERSION}: an earlier crawlkit now refuses it. No copy of it was kept`,
    );
    expect(existsSync(join(store, `crawlkit.db.schema-${BEHIND}.bak`))).toBe(false);
    expect(schemaOf(join(store, 'crawlkit.db'))).toBe(LATEST_VERSION);

    const apiStore = storeBehind('no-copy-api');
    const ck = new Crawlkit({ storeDir: apiStore, engine: 'http', storeMigrationCopy: false });
    const warnings: { code: string; message: string }[] = [];
    ck.on('warning', (warning) => warnings.push(warning));
    expect((await ck.scrape({ url, formats: ['markdown'] })).success).toBe(true);
    await ck.close();
    expect(warnings).toEqual([{ code: 'STORE_MIGRATED', message: expect.stringContaining('No copy of it was kept') }]);
    expect(existsSync(join(apiStore, `crawlkit.db.schema-${BEHIND}.bak`))).toBe(false);
    expect(() => new Crawlkit({ storeMigrationCopy: 'no' as unknown as boolean })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('storeMigrationCopy') }),
    );
  });
});
