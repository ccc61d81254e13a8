/**
 * The `warning` event's codes have one list, `WARNING_CODES`: the compiler refuses a warning told with another code
 * (`TellWarning`, `CrawlkitEvents['warning']`), the README's table is that list, and every code in it is told somewhere.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { WARNING_CODES, type WarningCode } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { readmeRows, TABLES } from '../scripts/code-tables.ts';

const PACKAGES = new URL('../packages/', import.meta.url).pathname;

/** The source files of every package (tests and the list itself left out). */
function sources(dir = PACKAGES): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    const isSource = path.includes('/src/') && name.endsWith('.ts') && !name.endsWith('.test.ts');
    return isSource && name !== 'warning-codes.ts' ? [path] : [];
  });
}

describe('warning codes', () => {
  it('has one README row per code, saying when it is told (pnpm docs:tables)', () => {
    expect(readmeRows(TABLES.warnings)).toEqual(TABLES.warnings.rows());
    expect(Object.keys(WARNING_CODES).length).toBeGreaterThanOrEqual(12);
  });

  it('lists only codes that something tells', () => {
    const text = sources()
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const untold = (Object.keys(WARNING_CODES) as WarningCode[]).filter((code) => !text.includes(`'${code}'`));
    expect(untold).toEqual([]);
  });
});
