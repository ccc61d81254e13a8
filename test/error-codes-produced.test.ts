import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ERROR_CODES } from 'crawlkit';
import { describe, expect, it } from 'vitest';

// The README's error table is generated from ERROR_CODES and users match on its codes: a code no source produces is
// a promise nothing keeps (`SCRAPE_ENGINE_UNSUITABLE` was in the table, 400, and `engine: 'http'` with actions answered
// success with v2's "The engine used does not support the following features" warning, as upstream does).
const PACKAGES = join(import.meta.dirname, '..', 'packages');

/** Every non-test TypeScript source of the packages, outside the table itself and the store conformance suite. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['node_modules', 'dist', '__fixtures__', 'error-codes', 'conformance'].includes(entry.name)
        ? []
        : sources(path);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** A line that only declares a code as a member of a code union (`| 'X'`, `type X = 'X'`), which produces nothing. */
const DECLARES = /^\s*(?:\|\s*|(?:export )?type \w+ =\s*)'[A-Z_]+'/;

describe('error codes produced', () => {
  it('has every code of ERROR_CODES produced (named outside the table and the code unions) by some source', () => {
    const text = sources(PACKAGES)
      .map((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => !DECLARES.test(line))
          .join('\n'),
      )
      .join('\n');
    const dead = Object.keys(ERROR_CODES).filter((code) => !new RegExp(`['"\`]${code}['"\`]`).test(text));
    expect(dead).toEqual([]);
  });
});
