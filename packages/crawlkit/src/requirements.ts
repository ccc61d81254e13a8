/**
 * What crawlkit needs of Node.js, checked before anything else is loaded by every entry point: the library's import
 * (`assert-runtime.ts`, the first import of `index.ts`), the CLI with its `serve` and `worker` commands (`cli.ts`), and
 * through them `@crawlkit/server`. Without the check, an older Node fails far from the cause (`No such built-in
 * module: node:sqlite` on the first call).
 */

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
}

const current = (): NodeRuntime => ({
  version: process.versions.node,
  execPath: process.execPath,
  getBuiltinModule: process.getBuiltinModule?.bind(process),
});

const INSTALL =
  `Install Node.js ${MIN_NODE.join('.')} or later (a current LTS from https://nodejs.org, or \`nvm install --lts\`) and ` +
  'run crawlkit with it.';

/** Why this Node.js cannot run crawlkit, with what to install; undefined when it can. */
export function runtimeProblem(node: NodeRuntime = current()): string | undefined {
  const [major = 0, minor = 0] = node.version.split('.').map(Number);
  const [needMajor, needMinor] = MIN_NODE;
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    return (
      `crawlkit needs Node.js ${needMajor}.${needMinor} or later (for node:sqlite with FTS5, its store); this is Node.js ` +
      `${node.version} (${node.execPath}). ${INSTALL}`
    );
  }
  let sqlite: unknown;
  try {
    sqlite = withoutSqliteWarning(() => node.getBuiltinModule?.('node:sqlite'));
  } catch {
    sqlite = undefined;
  }
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

/** The warning Node 22 prints when `node:sqlite` is first loaded (Node 24 loads it silently). */
const SQLITE_WARNING = /^SQLite is an experimental feature/;

/**
 * Runs `load` (the process's first load of `node:sqlite`: this check runs before any other module of crawlkit) without
 * the `ExperimentalWarning` Node 22 emits for it: crawlkit chose `node:sqlite` and pins the Node versions it is tested
 * on, so the warning would tell a user of the library or the CLI, on every run, of a choice that is not theirs to act
 * on. Only that warning is dropped, only during the load; every other warning is emitted as before.
 */
function withoutSqliteWarning<T>(load: () => T): T {
  // Kept unbound to be put back as it was: it is only ever called with `process` as `this` below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emit = process.emitWarning as (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) => void;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const type =
      typeof warning !== 'string'
        ? warning.name
        : typeof rest[0] === 'string'
          ? rest[0]
          : (rest[0] as { type?: string } | undefined)?.type;
    const message = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && SQLITE_WARNING.test(message)) return;
    emit.call(this, warning, ...rest);
  };
  try {
    return load();
  } finally {
    process.emitWarning = emit;
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
