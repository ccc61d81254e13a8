import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { isMissing, isUnloadable, OFFICEPARSER_RANGE } from './office.js';

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

  it('is told unloadable when installed after the process first looked for it (npm install under a running serve)', () => {
    // A real Node process: a package's import of `pkgx` fails, pkgx is installed, the same import fails again
    // naming node_modules/pkgx/index.js (before, a SCRAPE_DOCUMENT_PARSE_ERROR "could not be read").
    const dir = mkdtempSync(join(tmpdir(), 'ck-unloadable-'));
    try {
      const importer = join(dir, 'node_modules', 'imp');
      mkdirSync(importer, { recursive: true });
      writeFileSync(join(importer, 'package.json'), '{"name":"imp","type":"module","exports":"./index.js"}');
      writeFileSync(join(importer, 'index.js'), 'export const load = () => import("pkgx");');
      const script = [
        "import { mkdirSync, writeFileSync } from 'node:fs';",
        "import { load } from 'imp';",
        'const first = await load().catch((e) => e);',
        "mkdirSync('node_modules/pkgx');",
        'writeFileSync(\'node_modules/pkgx/package.json\', \'{"name":"pkgx","type":"module","exports":"./main.js"}\');',
        "writeFileSync('node_modules/pkgx/main.js', 'export {};');",
        'const second = await load().catch((e) => e);',
        'console.log(JSON.stringify([first, second].map((e) => ({ code: e.code, message: e.message }))));',
      ].join('\n');
      writeFileSync(join(dir, 'probe.mjs'), script);
      const out = execFileSync(process.execPath, ['probe.mjs'], { cwd: dir, encoding: 'utf8' });
      const [first, second] = (JSON.parse(out) as { code: string; message: string }[]).map((e) =>
        Object.assign(new Error(e.message), { code: e.code }),
      );
      expect(isMissing(first, 'pkgx')).toBe(true);
      expect(isMissing(second, 'pkgx')).toBe(false);
      expect(isUnloadable(second, 'pkgx')).toBe(true);
      expect(isUnloadable(first, 'pkgx')).toBe(false);
      expect(isUnloadable(second, 'officeparser')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
