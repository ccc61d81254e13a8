/**
 * `node:sqlite` without Node 22's `ExperimentalWarning`, for its two loaders: crawlkit's runtime check
 * (`requirements.ts`, the first load when crawlkit is imported) and `@crawlkit/store`'s SQLite store (the first when
 * the store is used on its own).
 */
import type * as Sqlite from 'node:sqlite';

/** The warning Node 22 prints when `node:sqlite` is first loaded (Node 24 loads it silently). */
const SQLITE_WARNING = /^SQLite is an experimental feature/;

/**
 * Runs `load` (a load of `node:sqlite`) without the `ExperimentalWarning` Node 22 emits at the process's first one:
 * crawlkit chose `node:sqlite` and pins the Node versions it is tested on, so the warning would tell a user of the
 * library, the CLI or the store, on every run, of a choice that is not theirs to act on. Only that warning is dropped,
 * only during the load; every other warning is emitted as before.
 */
export function withoutSqliteWarning<T>(load: () => T): T {
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

/** `node:sqlite`, loaded without Node 22's `ExperimentalWarning`. */
export function loadSqlite(): typeof Sqlite {
  return withoutSqliteWarning(() => process.getBuiltinModule('node:sqlite'));
}
