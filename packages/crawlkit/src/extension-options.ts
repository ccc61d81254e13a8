/**
 * The checks of the extension points of `CrawlkitOptions`: `store` (`'memory'`, a full `Store` or a `PageCache`, told
 * apart by their parts), and `engines`, which crawlkit does not take.
 */
import { InvalidOptionError, isObject, membersLacking } from '@crawlkit/options';
import type { PageCache, Store } from '@crawlkit/store';
import { z } from 'zod';

/** What every `PageCache` has: its name, its pages' required methods, `close()`. */
const PAGE_CACHE_MEMBERS = [
  'kind',
  'ephemeral',
  'pages.get()',
  'pages.put()',
  'pages.deleteByUrl()',
  'pages.clear()',
  'pages.prune()',
  'pages.stats()',
  'close()',
];
/** The parts a full `Store` adds to a `PageCache` (`isFullStore`): with all of them crawlkit keeps jobs there. */
const STORE_PARTS = ['jobs', 'tasks', 'results', 'deliveries', 'engines', 'history'];

/** Keys of a plain object given as `store` that name a directory. */
const DIR_KEYS = ['dir', 'directory', 'path', 'storeDir'];

/** Why `value` is no `store` crawlkit takes, in words, or undefined when it is one. */
function storeProblem(value: unknown): string | undefined {
  if (value === 'memory') return undefined;
  // `--store DIR` of the command line is `storeDir` here, so a path given as `store` is told where it goes
  if (typeof value === 'string') return "Expected 'memory', a Store or a PageCache (for a directory, use `storeDir`)";
  if (!isObject(value)) return "Expected 'memory', a Store or a PageCache";
  const lacking = membersLacking(value, PAGE_CACHE_MEMBERS);
  // `{ dir: './store' }`: a guess at where the on-disk store goes, which is `storeDir`
  const dir = DIR_KEYS.map((key) => value[key]).find((v) => typeof v === 'string');
  if (lacking.length === PAGE_CACHE_MEMBERS.length && typeof dir === 'string') {
    return `Expected 'memory', a Store or a PageCache (for a directory, use \`storeDir: ${JSON.stringify(dir)}\`)`;
  }
  if (lacking.length > 0) {
    return (
      `Expected 'memory', a Store or a PageCache (@crawlkit/store): ${lacking.join(', ')}. A PageCache has ` +
      '`kind`, `ephemeral`, `pages` (`get`, `put`, `deleteByUrl`, `clear`, `prune`, `stats`) and `close()`'
    );
  }
  const parts = STORE_PARTS.filter((part) => value[part] !== undefined);
  if (parts.length > 0 && parts.length < STORE_PARTS.length) {
    const missing = STORE_PARTS.filter((part) => !parts.includes(part));
    return (
      `Expected 'memory', a Store or a PageCache: it has ${names(parts)} but not ${names(missing)}. A full Store ` +
      'has all six (crawls, batches and change history are kept in it); a PageCache none of them (they are kept ' +
      'in memory)'
    );
  }
  return undefined;
}

const names = (parts: string[]) => parts.map((part) => `\`${part}\``).join(', ');

/** The `store` option: refused with what it lacks, so that a store missing a method fails here, not at a scrape. */
export const storeOptionSchema = z.custom<Store | PageCache | 'memory'>((value) => storeProblem(value) === undefined, {
  error: (issue) => storeProblem(issue.input) ?? "Expected 'memory', a Store or a PageCache",
});

/**
 * Refuses `engines` (the fetcher's option, which the README's "How a scrape runs" names), telling where an engine of
 * your own goes rather than "check the spelling".
 * @throws {InvalidOptionError}
 */
export function refuseEngines(input: unknown): void {
  if (typeof input !== 'object' || input === null || !('engines' in input)) return;
  throw new InvalidOptionError(
    'Invalid options of new Crawlkit(): `engines`: crawlkit takes no engine of your own yet (its `engine` is ' +
      "'auto', 'http', 'browser' or 'replay'). An engine of your own (a PageEngine) serves a Fetcher of " +
      '@crawlkit/fetcher used directly: `new Fetcher({ engines: [yours] })` (its README, "Engines of your own").',
  );
}
