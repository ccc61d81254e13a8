import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeStoreConformance } from '../conformance.js';
import { createSqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'ck-sqlite-conformance-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

describeStoreConformance('sqlite', (options) => createSqliteStore({ dir: join(root, `s${n++}`), ...options }));
describeStoreConformance('sqlite without hot tier', (options) =>
  createSqliteStore({ dir: join(root, `s${n++}`), hotTier: false, ...options }),
);
