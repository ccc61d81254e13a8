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
});
