/**
 * Bundles crawlkit's extraction worker (`dist/extraction/worker.js`, as tsc wrote it) into one file in its place: a
 * new thread then loads a handful of modules instead of ~260, whose loading was most of its start. Run from
 * `packages/crawlkit`, after tsc and prune-dist, once the workspace packages it imports are built.
 *
 * A module that finds something from its own place (`import.meta`, `createRequire`, an `import()` or `require()` of
 * a package: the lazy readers, the pdf.js worker file, the OCR data) is not copied into the bundle: it would look
 * from crawlkit's `dist`, where pnpm's layout lacks the dependencies of the other packages. The bundle loads that
 * module from its own package instead, found by `import.meta.resolve` of the package (a dependency of crawlkit).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

import { build, type Plugin } from 'esbuild';

const OUT_DIR = join('dist', 'extraction');
const ENTRY = join(OUT_DIR, 'worker.js');
/** What a module does that depends on the file it is in (comments aside). */
const PLACE_BOUND = /import\.meta|createRequire|\bimport\s*\(|\brequire\s*\(|__dirname|__filename/;
/** In crawlkit's own and third-party modules: esbuild copies what an `import()` or `require()` of a literal loads. */
const OTHER_PLACE_BOUND = /import\.meta|createRequire|__dirname|__filename/;
/** Third-party modules whose own-place code is known not to depend on their place. */
const PLACE_FREE = [/\/fflate\/esm\/index\.mjs$/];

function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n');
}

/** The workspace package a file of `packages/<name>/dist` belongs to, with its entry's folder. */
function workspacePackage(path: string): { name: string; entryDir: string } | undefined {
  const match = /^(.*\/packages\/[^/]+)\/dist\//.exec(path.split(sep).join('/'));
  if (!match?.[1]) return undefined;
  const root = match[1];
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: { '.': { default: string } };
  };
  return { name: manifest.name, entryDir: dirname(join(root, manifest.exports['.'].default)) };
}

/** A module that imports the original file from its package at run time, and re-exports what it exports. */
async function shim(path: string, pkg: { name: string; entryDir: string }): Promise<string> {
  const names = Object.keys((await import(pathToFileURL(path).href)) as object).filter((n) => n !== 'default');
  const rel = `./${relative(pkg.entryDir, path).split(sep).join('/')}`;
  const load = `await import(new URL(${JSON.stringify(rel)}, import.meta.resolve(${JSON.stringify(pkg.name)})).href)`;
  return `const m = ${load};\n${names.map((n) => `export const ${n} = m.${n};`).join('\n')}\n`;
}

const placeBound: Plugin = {
  name: 'place-bound',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?js$/ }, async ({ path }) => {
      if (path === join(process.cwd(), ENTRY)) return undefined;
      const text = readFileSync(path, 'utf8');
      if (!PLACE_BOUND.test(code(text))) return undefined;
      const pkg = workspacePackage(path);
      if (pkg && pkg.name !== 'crawlkit') return { contents: await shim(path, pkg) };
      if (!OTHER_PLACE_BOUND.test(code(text))) return undefined;
      if (PLACE_FREE.some((pattern) => pattern.test(path))) return undefined;
      throw new Error(`${path} depends on its own place: shim it or list it as place-free after checking it`);
    });
  },
};

/** The first line of the bundle: run twice without tsc in between, this script would bundle its own output. */
const BANNER =
  '// The extraction worker bundled by scripts/bundle-worker.ts, from what tsc wrote of src/extraction/worker.ts.';
if (readFileSync(ENTRY, 'utf8').startsWith(BANNER)) {
  throw new Error(`${ENTRY} is a bundle already: run tsc first (pnpm build)`);
}

const result = await build({
  entryPoints: [ENTRY],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  outdir: OUT_DIR,
  write: false,
  sourcemap: 'linked',
  // For a third-party source its package's map names but does not ship (installedSources replaces the rest).
  sourcesContent: true,
  legalComments: 'none',
  banner: { js: BANNER },
  logLevel: 'warning',
  // Not the root tsconfig's `paths`, which point the workspace packages at their sources.
  tsconfig: 'tsconfig.build.json',
  plugins: [placeBound],
});
/**
 * The map's sources, for a user's install: crawlkit's own stay `../../src/…`; another workspace package's become its
 * folder beside crawlkit's (`node_modules/@crawlkit/x`, in npm's layout and pnpm's); a third-party module's, found
 * beside crawlkit in neither, keep their content in the map.
 */
function installedSources(map: { sources: string[]; sourcesContent?: (string | null)[] }): void {
  const workspace = /^(?:\.\.\/){3}([^./][^/]*)\/(.*)$/;
  const thirdParty = /node_modules\/(?!\.pnpm\/)(.*)$/;
  const embedded = map.sourcesContent ?? [];
  map.sourcesContent = map.sources.map((source, i) => {
    const inWorkspace = workspace.exec(source);
    if (inWorkspace?.[1] && inWorkspace[1] !== 'node_modules') {
      const manifest = JSON.parse(readFileSync(join('..', inWorkspace[1], 'package.json'), 'utf8')) as { name: string };
      map.sources[i] = `../../../${manifest.name}/${inWorkspace[2]}`;
      return null;
    }
    const inPackage = thirdParty.exec(source);
    if (!inPackage?.[1]) return null;
    const name = /^(?:@[^/]+\/)?[^/]+/.exec(inPackage[1])![0];
    packageDirs.set(name, join(OUT_DIR, source.slice(0, source.length - inPackage[1].length + name.length)));
    map.sources[i] = `../../../${inPackage[1]}`;
    // A package's own map may name sources it does not ship (content-disposition's `src/index.ts`), with their content.
    const file = join(OUT_DIR, source);
    if (existsSync(file)) return readFileSync(file, 'utf8');
    if (embedded[i]) return embedded[i];
    throw new Error(`${source}, a source of the bundle, is neither installed nor carried by its package's map`);
  });
}

/** The bundled third-party packages' folders, by name: their licences go beside the bundle. */
const packageDirs = new Map<string, string>();

/** Their MIT, ISC and BSD licences ask for their notices in every copy: the bundle is one. */
function notices(): string {
  const parts = [...packageDirs].sort(([a], [b]) => a.localeCompare(b));
  return parts
    .map(([name, dir]) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        version: string;
        license: string;
      };
      const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
      if (!file) throw new Error(`${name} has no licence file to copy beside the bundle`);
      const text = readFileSync(join(dir, file), 'utf8').trim();
      return `${name}@${manifest.version} (${manifest.license})\n\n${text}\n`;
    })
    .join(`\n${'-'.repeat(80)}\n\n`);
}

for (const file of result.outputFiles) {
  if (!file.path.endsWith('.map')) {
    writeFileSync(file.path, file.contents);
    continue;
  }
  const map = JSON.parse(file.text) as { sources: string[]; sourcesContent?: (string | null)[] };
  installedSources(map);
  writeFileSync(file.path, JSON.stringify(map));
}
writeFileSync(
  join(OUT_DIR, 'worker.js.LICENSES.txt'),
  `Third-party code bundled into worker.js, and the notices of its licences.\n\n${notices()}`,
);
