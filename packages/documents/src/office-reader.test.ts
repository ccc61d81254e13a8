import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { isMissing, OFFICEPARSER_RANGE } from './office.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

/** The error a real failed `import()` of `specifier` throws. */
async function importError(specifier: string): Promise<unknown> {
  try {
    await import(/* @vite-ignore */ specifier);
  } catch (error) {
    return error;
  }
  throw new Error(`${specifier} imported`);
}

describe('officeparser, an optional peer dependency', () => {
  it('is declared as one, and the command the error gives installs the range declared', () => {
    expect(manifest.dependencies?.officeparser).toBeUndefined();
    expect(manifest.peerDependencies?.officeparser).toBe(OFFICEPARSER_RANGE);
    expect(manifest.peerDependenciesMeta?.officeparser?.optional).toBe(true);
  });

  it('is told missing when the package itself is not installed, not when a module inside a package fails', async () => {
    // the packed-install test scrapes a DOCX without officeparser installed (scripts/packed/office-steps.ts)
    expect(isMissing(await importError('officeparser-not-installed'), 'officeparser-not-installed')).toBe(true);
    expect(isMissing(await importError('officeparser-not-installed'), 'officeparser')).toBe(false);
    expect(isMissing(await importError('officeparser/no-such-entry'), 'officeparser')).toBe(false);
    expect(isMissing(new Error("Cannot find package 'officeparser'"), 'officeparser')).toBe(false);
  });
});
