/** `crawlkit cache vacuum`: the store file's free pages given back to the file system, its size before and after. */
import { sizeText } from '@crawlkit/options/size-text';
import { createSqliteStore } from '@crawlkit/store';

import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';

/**
 * The write-ahead log a vacuum left, said after the sizes: the "after" can be twice the file's (a `serve` reading the
 * store kept the log the vacuum wrote through), and the user should know why and when that room comes back.
 */
function walLeft(walBytes: number): string {
  if (walBytes === 0) return '';
  return (
    `, of which ${sizeText(walBytes)} is its write-ahead log crawlkit.db-wal: another process reading the store kept ` +
    'it from being folded back into the file. It is given back once that process closes the store, or by running ' +
    'the vacuum again while no other process uses it.'
  );
}

/**
 * Rewrites the store's SQLite file without the pages its deleted rows left (a cleared or pruned cache keeps them for
 * reuse, so the file does not shrink), printing the size before and after. Opens the store alone, not an engine;
 * a `serve` on the same store waits while it runs (the write lock), or this answers `STORE_BUSY`.
 */
export async function cacheVacuum(ctx: CommandContext): Promise<number> {
  if (ctx.storeMissing) {
    ctx.write(`vacuumed nothing: there is no store at ${ctx.storePlace}\n`);
    return EXIT.ok;
  }
  if (ctx.redis) {
    throw new CliError(
      "cache vacuum rewrites a store directory's SQLite file: leave out --redis (Redis frees its own memory)",
    );
  }
  const store = await createSqliteStore({ dir: ctx.storeDir, migrationCopy: ctx.options.migrationCopy !== false });
  for (const warning of store.warnings) ctx.io.stderr.write(`crawlkit: warning: ${warning.message}\n`);
  try {
    const { beforeBytes, afterBytes, walBytes } = await store.vacuum();
    ctx.write(
      `vacuumed ${store.path}: ${sizeText(beforeBytes)} before, ${sizeText(afterBytes)} after${walLeft(walBytes)}\n`,
    );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
