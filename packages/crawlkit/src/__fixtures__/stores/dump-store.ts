/**
 * Writes the rows of a SQLite store as JSON, for the stores of earlier crawlkits kept here
 * (`test/store-upgrade.test.ts` builds each again from the schema steps of its version and these rows). Run on a
 * store an earlier build filled:
 * `node packages/crawlkit/src/__fixtures__/stores/dump-store.ts <store dir> > crawlkit-<commit>.json`.
 * The search index's tables are left out (the test does not search); blobs are `{ "base64": ... }`.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const TABLES = ['jobs', 'tasks', 'results', 'errors', 'robots_blocked', 'deliveries', 'history', 'pages'];
const OPTIONAL = ['host_engines', 'counters', 'schedules'];

const db = new DatabaseSync(join(process.argv[2]!, 'crawlkit.db'), { readOnly: true });
const has = (table: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
const version = Number(db.prepare('SELECT max(version) AS v FROM schema_migrations').get()!.v);
const rows: Record<string, Record<string, unknown>[]> = {};
for (const table of [...TABLES, ...OPTIONAL.filter(has)]) {
  rows[table] = db
    .prepare(`SELECT * FROM ${table}`)
    .all()
    .map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          value instanceof Uint8Array ? { base64: Buffer.from(value).toString('base64') } : value,
        ]),
      ),
    );
}
process.stdout.write(`${JSON.stringify({ schemaVersion: version, rows }, null, 1)}\n`);
