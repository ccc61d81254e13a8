/**
 * What crawlkit needs of Node.js, checked before anything else is loaded by every entry point: the library's import
 * (`assert-runtime.ts`, the first import of `index.ts`), the CLI with its `serve` and `worker` commands (`cli.ts`), and
 * through them `@crawlkit/server`. Without the check, an older Node fails far from the cause (`No such built-in
 * module: node:sqlite` on the first call).
 */

/** The lowest Node.js crawlkit runs on: the first with `node:sqlite` unflagged. Matches `engines` of every package. */
export const MIN_NODE = [22, 13] as const;

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
  'Install Node.js 22.13 or later (a current LTS from https://nodejs.org, or `nvm install --lts`) and run crawlkit ' +
  'with it.';

/** Why this Node.js cannot run crawlkit, with what to install; undefined when it can. */
export function runtimeProblem(node: NodeRuntime = current()): string | undefined {
  const [major = 0, minor = 0] = node.version.split('.').map(Number);
  const [needMajor, needMinor] = MIN_NODE;
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    return (
      `crawlkit needs Node.js ${needMajor}.${needMinor} or later (for node:sqlite, its store); this is Node.js ` +
      `${node.version} (${node.execPath}). ${INSTALL}`
    );
  }
  let sqlite: unknown;
  try {
    sqlite = node.getBuiltinModule?.('node:sqlite');
  } catch {
    sqlite = undefined;
  }
  if (!sqlite) {
    return (
      `crawlkit needs the node:sqlite module, which this Node.js ${node.version} (${node.execPath}) lacks (built ` +
      `without SQLite?). ${INSTALL}`
    );
  }
  return undefined;
}
