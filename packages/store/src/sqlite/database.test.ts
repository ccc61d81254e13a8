import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../lifecycle.js';
import { SqliteDatabase } from './database.js';

describe('SqliteDatabase', () => {
  it('refuses a numbered parameter, which node:sqlite of Node 22.16 cannot bind, and binds plain ? everywhere', () => {
    const raw = new DatabaseSync(':memory:');
    try {
      const db = new SqliteDatabase(raw, new Lifecycle());
      expect(() => db.all('SELECT ?1 AS a, ?1 AS b', 'x')).toThrow(
        /numbered parameter \(\?1\).*Node 22\.16.*use \? and pass a value repeated/,
      );
      expect(db.all('SELECT ? AS a, ? AS b', 'x', 'x')).toEqual([{ a: 'x', b: 'x' }]);
    } finally {
      raw.close();
    }
  });

  it('refuses a statement that changes rows outside the write lock: one home for the rule of use and useWrite', async () => {
    const raw = new DatabaseSync(':memory:');
    try {
      const db = new SqliteDatabase(raw, new Lifecycle());
      db.exec('CREATE TABLE t (n INTEGER)');
      await expect(db.use(() => db.run('INSERT INTO t (n) VALUES (1)'))).rejects.toThrow(
        /changes rows ran outside the write lock: run it through useWrite/,
      );
      await expect(db.use(() => db.all('WITH x AS (SELECT 1) DELETE FROM t RETURNING n'))).rejects.toThrow(
        /outside the write lock/,
      );
      expect(await db.useWrite(() => db.run('INSERT INTO t (n) VALUES (1)'))).toBe(1);
      // A write that throws is rolled back whole.
      await expect(
        db.useWrite(() => {
          db.run('INSERT INTO t (n) VALUES (2)');
          throw new Error('halfway');
        }),
      ).rejects.toThrow('halfway');
      expect(await db.use(() => db.all('SELECT n FROM t'))).toEqual([{ n: 1 }]);
    } finally {
      raw.close();
    }
  });
});
