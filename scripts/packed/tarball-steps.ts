/**
 * Static checks of what npm installed from our tarballs, as files (nothing is run): each package carries its README,
 * its source maps point at sources it ships, and its built code imports only packages it declares. Part of `STEPS`
 * (`steps.ts`); together about 1.5 s, most of it loading TypeScript's scanner.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';

import ts from 'typescript';

import type { Step, StepContext } from './steps.ts';

interface Manifest {
  name: string;
  sideEffects?: boolean | string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  exports?: Record<string, unknown>;
}

/** The folders of our packages in the install's node_modules, with their package.json. */
function installed(ctx: StepContext): { dir: string; manifest: Manifest }[] {
  const modules = join(ctx.dir, 'node_modules');
  const dirs = [
    join(modules, 'crawlkit'),
    ...readdirSync(join(modules, '@crawlkit')).map((n) => join(modules, '@crawlkit', n)),
  ];
  return dirs.map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
  }));
}

/** The files of a package folder, relative to it (its own node_modules left out). */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('node_modules'));
}

/**
 * Every package has its README (npm shows it as the package's page) and its LICENSE, and every `.map` names sources
 * the install has or carries their content: a map pointing at a missing `src/*.ts` sends a stack trace
 * (`node --enable-source-maps`) and an editor's "go to definition" (declaration maps) to a file the user does not have.
 */
const contents: Step = {
  name: 'tarball contents: README, LICENSE, source maps with their sources',
  run: (ctx) => {
    const problems: string[] = [];
    for (const { dir, manifest } of installed(ctx)) {
      for (const name of ['README.md', 'LICENSE']) {
        if (!existsSync(join(dir, name))) problems.push(`${manifest.name} has no ${name}`);
      }
      let missing = 0;
      let example = '';
      for (const file of files(dir).filter((f) => f.endsWith('.map'))) {
        const map = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
          sources: string[];
          sourceRoot?: string;
          sourcesContent?: (string | null)[];
        };
        for (const [i, source] of map.sources.entries()) {
          const path = join(dir, dirname(file), map.sourceRoot ?? '', source);
          // The bundled worker's third-party modules (scripts/bundle-worker.ts) travel in its map.
          if (existsSync(path) || typeof map.sourcesContent?.[i] === 'string') continue;
          missing++;
          example ||= `${file} -> ${relative(dir, path)}`;
        }
      }
      if (missing) problems.push(`${manifest.name}: ${missing} source map sources missing (${example})`);
    }
    if (problems.length) throw new Error(problems.join('\n'));
    return Promise.resolve();
  },
};

/** The package a module specifier names (`@scope/name/sub` -> `@scope/name`), or undefined for a relative one. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return builtinModules.includes(name) ? undefined : name;
}

/**
 * The built JavaScript of each package imports (statically, with `import()` or `require()`) only its dependencies
 * and peer dependencies. A package found only because npm hoisted another's dependency, or only declared as a dev
 * dependency or in the workspace's root, breaks for a user whose tree is laid out otherwise (pnpm, a newer version).
 */
const declared: Step = {
  name: 'built code imports only declared dependencies',
  run: (ctx) => {
    const problems: string[] = [];
    for (const { dir, manifest } of installed(ctx)) {
      const allowed = new Set([
        manifest.name,
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]);
      const undeclared = new Map<string, string>();
      for (const file of files(dir).filter((f) => /\.(c|m)?js$/.test(f))) {
        const { importedFiles } = ts.preProcessFile(readFileSync(join(dir, file), 'utf8'), true, true);
        for (const { fileName } of importedFiles) {
          const name = packageOf(fileName);
          if (name && !allowed.has(name) && !undeclared.has(name)) undeclared.set(name, file);
        }
      }
      for (const [name, file] of undeclared) {
        const dev = manifest.devDependencies?.[name] ? ' (a devDependency)' : '';
        problems.push(`${manifest.name}: ${file} imports ${name}, not in its dependencies${dev}`);
      }
    }
    if (problems.length) throw new Error(problems.join('\n'));
    return Promise.resolve();
  },
};

/**
 * A subpath of one of our packages that another's built code imports (`@crawlkit/options/temp-dir`) is in that
 * package's `exports`: the workspace resolves such a path through tsconfig's `paths` and vitest's aliases whether
 * exported or not, and the installed package then fails at the first call that loads it (ERR_PACKAGE_PATH_NOT_EXPORTED).
 */
const exported: Step = {
  name: 'built code imports only exported subpaths of our packages',
  run: (ctx) => {
    const ours = new Map(installed(ctx).map(({ manifest }) => [manifest.name, manifest]));
    const problems = new Set<string>();
    for (const { dir, manifest } of installed(ctx)) {
      for (const file of files(dir).filter((f) => /\.(c|m)?js$/.test(f))) {
        const { importedFiles } = ts.preProcessFile(readFileSync(join(dir, file), 'utf8'), true, true);
        for (const { fileName } of importedFiles) {
          const name = packageOf(fileName);
          const target = name && ours.get(name);
          if (!target || fileName === name) continue;
          const subpath = `.${fileName.slice(name.length)}`;
          if (!target.exports?.[subpath]) problems.add(`${manifest.name}: ${file} imports ${fileName}, not exported`);
        }
      }
    }
    if (problems.size) throw new Error([...problems].join('\n'));
    return Promise.resolve();
  },
};

/** A module imported for its effect alone (`import './x.js';`), as a bundler sees it. */
const BARE_IMPORT = /^import\s*['"](\.[^'"]+)['"];?\s*$/gm;

/**
 * A package that says `"sideEffects": false` (or lists its files) lets a bundler drop a module imported for its
 * effect alone: each such module must be listed, or crawlkit's check of the Node version is dropped with it. So must
 * the module that imports it: Turbopack (Next.js) goes straight to the module of an export it takes through an entry
 * free of side effects, and never ran the entry's import of the check.
 */
const sideEffects: Step = {
  name: 'modules imported for their effect are declared as side effects',
  run: (ctx) => {
    const problems: string[] = [];
    for (const { dir, manifest } of installed(ctx)) {
      if (manifest.sideEffects === undefined || manifest.sideEffects === true) continue;
      const listed = new Set((manifest.sideEffects || []).map((file) => join(dir, file)));
      for (const file of files(dir).filter((f) => f.startsWith('dist') && /\.(c|m)?js$/.test(f))) {
        for (const [, specifier] of readFileSync(join(dir, file), 'utf8').matchAll(BARE_IMPORT)) {
          const target = join(dir, dirname(file), specifier!);
          if (!listed.has(target)) {
            problems.push(`${manifest.name}: ${file} imports ${specifier} for its effect, not in "sideEffects"`);
          }
          if (!listed.has(join(dir, file))) {
            problems.push(`${manifest.name}: ${file} imports ${specifier} for its effect, and is not in "sideEffects"`);
          }
        }
      }
    }
    if (problems.length) throw new Error(problems.join('\n'));
    return Promise.resolve();
  },
};

export const tarballSteps: Step[] = [contents, declared, exported, sideEffects];
