/**
 * `crawlkit mcp` refuses at start a store it cannot open, as `serve` does: after a roll-back, a store file that a
 * newer crawlkit migrated. Before, it said "crawlkit serves MCP on stdio", exited 0 and answered every tool call
 * with STORE_SCHEMA_TOO_NEW. The newer store is a real SQLite file made by the migrations themselves, one version on.
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
  dir = mkdtempSync(join(tmpdir(), 'ck-mcp-store-'));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store directory whose database a crawlkit one schema version newer than this one left. */
function newerStore(): string {
  const storeDir = join(dir, 'newer');
  mkdirSync(storeDir);
  const db = new DatabaseSync(join(storeDir, 'crawlkit.db'));
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  for (const migration of MIGRATIONS) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(migration.version, migration.description);
  }
  db.prepare("INSERT INTO schema_migrations VALUES (?, 'a newer one', 0)").run(LATEST_VERSION + 1);
  db.close();
  return storeDir;
}

describe('crawlkit mcp on a store of a newer crawlkit', () => {
  it('exits at start with STORE_SCHEMA_TOO_NEW naming both versions, serving nothing', async () => {
    const store = newerStore();
    const result = await runCli(['mcp', '--store', store], { cwd: dir, env: { CRAWLKIT_STORE: '' }, input: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `The store has schema version ${LATEST_VERSION + 1}, newer than the ${LATEST_VERSION} this version`,
    );
    expect(result.stderr).toContain('(STORE_SCHEMA_TOO_NEW)');
    expect(result.stderr).not.toContain('serves MCP');
    expect(result.stdout).toBe('');
  });
});
