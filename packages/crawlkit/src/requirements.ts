/**
 * What crawlkit needs of Node.js, checked before anything else is loaded by every entry point: the library's import
 * (`assert-runtime.ts`, the first import of `index.ts`), the CLI with its `serve` and `worker` commands (`cli.ts`), and
 * through them `@crawlkit/server`. Without the check, an older Node fails far from the cause (`No such built-in
 * module: node:sqlite` on the first call).
 */

import { withoutSqliteWarning } from '@crawlkit/options/quiet-sqlite';

/**
 * The lowest Node.js crawlkit runs on: the first whose `node:sqlite` has FTS5, the store's search index (`node:sqlite`
 * is unflagged from 22.13, but 22.13-22.15 and every 23 were built without FTS5, so no store opened there). Matches
 * `engines` of every package.
 */
export const MIN_NODE = [22, 16] as const;

/** Node's own facts the check reads (parameters for tests). */
export interface NodeRuntime {
  version: string;
  execPath: string;
  /** `process.getBuiltinModule` (absent before Node 20.16). */
  getBuiltinModule?: (id: string) => unknown;
  /**
   * Bun or Deno, when one runs crawlkit: its `process.versions.node` is the Node API it imitates, not a Node, so
   * what crawlkit needs is checked there by feature alone, and the message names the runtime.
   */
  other?: { name: keyof typeof CHECKED_RUNTIMES; version: string };
}

/** The Bun and Deno releases crawlkit's packed checks run on (`scripts/packed/runtimes.ts`). */
export const CHECKED_RUNTIMES = { Bun: '1.4.5', Deno: '2.9.6' } as const;

function otherRuntime(): NodeRuntime['other'] {
  const { bun, deno } = process.versions as { bun?: string; deno?: string };
  if (bun) return { name: 'Bun', version: bun };
  return deno ? { name: 'Deno', version: deno } : undefined;
}

const current = (): NodeRuntime => {
  const other = otherRuntime();
  return {
    version: process.versions.node,
    execPath: process.execPath,
    getBuiltinModule: process.getBuiltinModule?.bind(process),
    ...(other ? { other } : {}),
  };
};

const INSTALL =
  `Install Node.js ${MIN_NODE.join('.')} or later (a current LTS from https://nodejs.org, or \`nvm install --lts\`) and ` +
  'run crawlkit with it.';

/** Why this Node.js cannot run crawlkit, with what to install; undefined when it can. */
export function runtimeProblem(node: NodeRuntime = current()): string | undefined {
  if (node.other) return otherRuntimeProblem(node, node.other);
  const [major = 0, minor = 0] = node.version.split('.').map(Number);
  const [needMajor, needMinor] = MIN_NODE;
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    return (
      `crawlkit needs Node.js ${needMajor}.${needMinor} or later (for node:sqlite with FTS5, its store); this is Node.js ` +
      `${node.version} (${node.execPath}). ${INSTALL}`
    );
  }
  const sqlite = loadSqlite(node);
  if (!sqlite) {
    return (
      `crawlkit needs the node:sqlite module, which this Node.js ${node.version} (${node.execPath}) lacks (built ` +
      `without SQLite?). ${INSTALL}`
    );
  }
  if (!hasFts5(sqlite)) {
    return (
      `crawlkit needs SQLite's FTS5 (its store's search index), which the node:sqlite of this Node.js ` +
      `${node.version} (${node.execPath}) was built without (as Node.js 22.13 to 22.15 and 23 were). ${INSTALL}`
    );
  }
  return undefined;
}

/** Why Bun or Deno cannot run crawlkit: a `node:sqlite` with FTS5 is what it needs of them that older releases lack. */
function otherRuntimeProblem(
  node: NodeRuntime,
  { name, version }: NonNullable<NodeRuntime['other']>,
): string | undefined {
  const sqlite = loadSqlite(node);
  if (sqlite && hasFts5(sqlite)) return undefined;
  const upgrade = name === 'Bun' ? 'bun upgrade' : 'deno upgrade';
  return (
    `crawlkit needs the node:sqlite module with FTS5 (its store), which this ${name} ${version} (${node.execPath}) ` +
    `${sqlite ? 'has without FTS5' : 'lacks'}. crawlkit is checked on ${name} ${CHECKED_RUNTIMES[name]} ` +
    `(\`${upgrade}\`); or ${INSTALL.replace(/^I/, 'i')}`
  );
}

/** `node:sqlite`, or undefined where the runtime has none (or no `process.getBuiltinModule` to load it). */
function loadSqlite(node: NodeRuntime): unknown {
  try {
    return withoutSqliteWarning(() => node.getBuiltinModule?.('node:sqlite'));
  } catch {
    return undefined;
  }
}

/** Whether `node:sqlite` makes an FTS5 table (an in-memory database: well under a millisecond). */
function hasFts5(sqlite: unknown): boolean {
  const Database = (sqlite as { DatabaseSync?: new (path: string) => { exec(sql: string): void; close(): void } })
    .DatabaseSync;
  if (typeof Database !== 'function') return false;
  let db;
  try {
    db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE probe USING fts5(text)');
    return true;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** The module that runs the checks (`assert-runtime.ts`, `.js` once built): the name its URL ends with. */
const CHECKING_MODULE = /\/assert-runtime\.[jt]s$/;

/**
 * Why crawlkit cannot run from where its modules are, or undefined. Bundled into an app's file, the URL of the
 * checking module (`moduleUrl`, its `import.meta.url`) names that file (esbuild's and rollup's ES module output) or
 * is missing (esbuild's CommonJS output leaves `import.meta` empty); webpack and Turbopack (Next.js) write the
 * module's own path in its place, so their bundles are told by `bundler`, read from the globals each alone defines.
 * crawlkit starts worker threads from files of its packages (`extraction/worker.js`, piscina's worker, pdf.js's
 * worker side, Tesseract's worker and model), found beside its modules: from a bundle they fail on the first page,
 * far from the cause.
 */
export function bundleProblem(moduleUrl: unknown, bundler?: string): string | undefined {
  if (!bundler && typeof moduleUrl === 'string' && CHECKING_MODULE.test(moduleUrl)) return undefined;
  const where = bundler ? `a ${bundler} bundle` : typeof moduleUrl === 'string' ? moduleUrl : 'a CommonJS bundle';
  return (
    `crawlkit's modules were bundled into your app's file (${where}), and they cannot run from there: crawlkit ` +
    `starts worker threads from files of its packages (page extraction, PDFs, OCR), which a bundle does not carry. ` +
    'Keep crawlkit and @crawlkit/* out of the bundle and install them beside it (npm i crawlkit): esbuild ' +
    '--packages=external (or --external:crawlkit --external:@crawlkit/*), rollup `external`, webpack `externals`, ' +
    "Next.js `serverExternalPackages: ['crawlkit']` (crawlkit's README, Bundling)."
  );
}
