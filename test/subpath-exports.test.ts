/**
 * Every entry a workspace package exports resolves to its sources in the workspace's tools as it does to its build in
 * an install: a path in `tsconfig.json` (`pnpm typecheck` on a clone that has not built yet) and, for a subpath, an
 * alias in `vitest.config.ts` (the tests run the sources). An install's resolution is `pnpm test:packed`'s.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface Entry {
  /** What a caller imports: `@crawlkit/documents/detect`. */
  specifier: string;
  /** The source of its build, from the root: `./packages/documents/src/detect.ts`. */
  source: string;
  /** An entry beside the package's main one. */
  subpath: boolean;
}

/** Each package's `exports`, the build file of each mapped back to its source. */
function exportedEntries(): Entry[] {
  return readdirSync(join(root, 'packages')).flatMap((dir) => {
    const manifest = JSON.parse(read(`packages/${dir}/package.json`)) as {
      name: string;
      exports?: Record<string, string | { default?: string }>;
    };
    return Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) => {
      const built = typeof target === 'string' ? target : target.default;
      if (!built?.startsWith('./dist/') || subpath.includes('*')) return [];
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      const source = `./packages/${dir}/src/${built.slice('./dist/'.length).replace(/\.js$/, '.ts')}`;
      return [{ specifier, source, subpath: subpath !== '.' }];
    });
  });
}

describe("the workspace packages' exports", () => {
  const entries = exportedEntries();

  it('are found', () => {
    expect(entries.map((e) => e.specifier)).toContain('@crawlkit/documents/detect');
  });

  it('each have a path to their source in tsconfig.json', () => {
    const paths = (JSON.parse(read('tsconfig.json')) as { compilerOptions: { paths: Record<string, string[]> } })
      .compilerOptions.paths;
    const missing = entries.filter((e) => paths[e.specifier]?.[0] !== e.source);
    expect(missing, 'add each to compilerOptions.paths').toEqual([]);
  });

  it('each have an alias in vitest.config.ts when a subpath', () => {
    const config = read('vitest.config.ts');
    const missing = entries.filter((e) => e.subpath && !config.includes(`'${e.specifier}'`));
    expect(missing, 'add each to the aliases of vitest.config.ts').toEqual([]);
  });
});
