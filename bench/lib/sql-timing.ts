/**
 * Preloaded into a bench child (`node --import bench/lib/sql-timing.ts`) with `CK_SQL_TIMING=FILE`: times every
 * `node:sqlite` statement, `exec` (transactions' BEGIN and COMMIT) and `close` (the WAL's checkpoint) of the process on
 * the main thread, and writes at exit, per SQL text, how many ran and their total milliseconds:
 * `[[sql, count, ms], ...]`. A diagnostic (about 0.2 µs a call): the store's own code is not touched.
 */
import { writeFileSync } from 'node:fs';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import { isMainThread } from 'node:worker_threads';

const out = process.env['CK_SQL_TIMING'];

// The workers (extraction) inherit the preload: the store is the main thread's.
if (out && isMainThread) {
  const spent = new Map<string, { count: number; ns: bigint }>();
  const note = (sql: string, started: bigint) => {
    const key = sql.replace(/\s+/g, ' ').trim();
    const entry = spent.get(key) ?? { count: 0, ns: 0n };
    entry.count++;
    entry.ns += process.hrtime.bigint() - started;
    spent.set(key, entry);
  };
  type Method = (this: unknown, ...args: unknown[]) => unknown;
  const timed = (proto: object, name: string, sqlOf: (self: unknown, args: unknown[]) => string) => {
    const original = (proto as Record<string, Method>)[name]!;
    (proto as Record<string, Method>)[name] = function (this: unknown, ...args: unknown[]) {
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        note(sqlOf(this, args), started);
      }
    };
  };
  const statementSql = (self: unknown) => (self as StatementSync).sourceSQL;
  for (const name of ['run', 'get', 'all']) timed(StatementSync.prototype, name, statementSql);
  timed(DatabaseSync.prototype, 'exec', (_self, args) => String(args[0]));
  timed(DatabaseSync.prototype, 'close', () => 'close (checkpoint)');
  // `iterate` reads its rows as they are asked for: each step is timed.
  const iterate = (StatementSync.prototype as unknown as Record<string, Method>)['iterate']!;
  (StatementSync.prototype as unknown as Record<string, Method>)['iterate'] = function (this: unknown, ...args) {
    const sql = statementSql(this);
    const rows = iterate.apply(this, args) as IterableIterator<unknown>;
    return {
      [Symbol.iterator]() {
        return this;
      },
      next() {
        const started = process.hrtime.bigint();
        try {
          return rows.next();
        } finally {
          note(sql, started);
        }
      },
      return(value?: unknown) {
        return rows.return?.(value) ?? { done: true, value };
      },
    };
  };
  process.on('exit', () => {
    const rows = [...spent].map(([sql, { count, ns }]) => [sql, count, Number(ns) / 1e6]);
    writeFileSync(out, JSON.stringify(rows));
  });
}
