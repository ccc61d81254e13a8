/** `crawlkit cache vacuum`: the store file's free pages given back to the file system, its size before and after. */
import { sizeText } from '@crawlkit/options/size-text';
import { createSqliteStore } from '@crawlkit/store';

import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';

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
  const store = await createSqliteStore({ dir: ctx.storeDir });
  for (const warning of store.warnings) ctx.io.stderr.write(`crawlkit: warning: ${warning.message}\n`);
  try {
    const { beforeBytes, afterBytes } = await store.vacuum();
    ctx.write(`vacuumed ${store.path}: ${sizeText(beforeBytes)} before, ${sizeText(afterBytes)} after\n`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
