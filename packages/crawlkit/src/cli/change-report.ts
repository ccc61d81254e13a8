import { ENGINE_DEFAULTS } from '../engine-defaults.js';
import type { CrawlChange } from '../v2/types.js';
import type { CommandContext } from './context.js';

/** Entries read per call while the feed is printed. */
const PAGE = 1_000;
const ORDER: readonly CrawlChange[] = ['new', 'changed', 'removed', 'same'];

/**
 * `crawlkit crawl --changes`: the crawl's change feed on stderr, after the crawl: a count per kind against the run
 * compared with, then every page that is new, changed or removed (unchanged pages are only counted).
 */
export async function printChanges(ctx: CommandContext, id: string): Promise<void> {
  const counts: Record<CrawlChange, number> = { new: 0, changed: 0, same: 0, removed: 0 };
  const listed: string[] = [];
  let previous: string | null | undefined;
  let address: string | undefined = id;
  while (address) {
    const page = await ctx.engine.getCrawlChanges(address, address === id ? { limit: PAGE } : {});
    if (!page.success) {
      ctx.note(`changes: ${page.error}`);
      return;
    }
    previous ??= page.previousCrawlId;
    for (const entry of page.data) {
      counts[entry.change]++;
      if (entry.change !== 'same') listed.push(`  ${entry.change.padEnd(8)} ${entry.url}`);
    }
    address = page.next;
  }
  const since = previous ? `since crawl ${previous}` : 'first run of this lineage';
  ctx.note(`changes ${since}: ${ORDER.map((kind) => `${counts[kind]} ${kind}`).join(', ')}`);
  for (const line of listed) ctx.note(line);
}

/**
 * Under `--store memory`, that what a change is told against is forgotten with the command: the next run compares
 * with nothing, and every page is `new` again, run after run. For a command that ends after its run (`scrape`,
 * `crawl --changes`), not a schedule's process, which keeps its history from run to run.
 */
export function noteForgottenHistory(ctx: CommandContext): void {
  if (!ctx.inMemory) return;
  ctx.note(
    'note: --store memory keeps no change history: the next run is all new again; give a store directory ' +
      `(--store DIR, default ${ENGINE_DEFAULTS.storeDir}) to compare with this one`,
  );
}
