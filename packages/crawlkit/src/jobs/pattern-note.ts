import { redactUrl } from '@crawlkit/fetcher';
import { createPathPatterns, type PathPatternOptions } from '@crawlkit/frontier';

const quoted = (patterns: readonly string[]) => patterns.map((p) => `\`${p}\``).join(', ');

/**
 * What a crawl's status says when it kept no page because of its `includePaths`: the seed, outside them, was read
 * for its links only, and none of those matched either. Without it a completed crawl of 0 pages said nothing. With
 * `regexOnFullURL` a pattern anchored to a path (`^/products/`) can never match the whole URL it is tested on.
 */
export function emptyPatternNote(seedUrl: string, options: PathPatternOptions, kept: number): string | undefined {
  const include = options.includePaths ?? [];
  const seed = URL.parse(seedUrl);
  if (kept > 0 || !seed || !seedLeftOut(seed, options)) return undefined;
  const note =
    `No page was kept: the seed ${redactUrl(seed)} matches none of \`includePaths\` (it was read for its links ` +
    'only), and none of the links it led to matched them either.';
  if (!options.regexOnFullURL) {
    const whole = include.filter((pattern) => /^\^?https?:|:\/\//.test(pattern));
    const onPath = `${note} The patterns are tested on the path (\`${seed.pathname}\`)`;
    if (whole.length === 0) return `${onPath}.`;
    return `${onPath}, so ${quoted(whole)} cannot match: set \`regexOnFullURL\`, or write the path alone.`;
  }
  const anchored = include.filter((pattern) => pattern.startsWith('^/'));
  if (anchored.length === 0) return `${note} With \`regexOnFullURL\` they are tested on the whole URL.`;
  return (
    `${note} With \`regexOnFullURL\` they are tested on the whole URL (\`${redactUrl(seed)}\`), so ` +
    `${quoted(anchored)} cannot match: drop the \`^\`, or write the origin into it.`
  );
}

/** Whether the crawl's `includePaths` leave its seed out: it is read for its links only, and kept as no page. */
export function seedLeftOut(seed: URL, options: PathPatternOptions): boolean {
  return (options.includePaths ?? []).length > 0 && !createPathPatterns(options).included(seed);
}

/**
 * What the limit's note adds when the seed was read for its links only: it counts toward `limit` (each URL fetched
 * does, as upstream counts them), so a crawl of `limit: 4` keeps 3 pages.
 */
export function seedLimitNote(seedUrl: string, options: PathPatternOptions, kept: number): string | undefined {
  const seed = URL.parse(seedUrl);
  if (!seed || !seedLeftOut(seed, options)) return undefined;
  return (
    `The seed ${redactUrl(seed)}, outside \`includePaths\` and read for its links only, counts toward it: ` +
    `${kept} page(s) kept.`
  );
}

/**
 * The reason a crawl notes (in `trapsSkipped`, one link a reason) for a link its `includePaths`/`excludePaths` refused
 * whose path is the seed's own: a listing's next page or filter (`/jobs?page=2` for `/jobs`, with `['/jobs/.*']`).
 */
export const SEED_PATH_REFUSED = 'SEED_PATH_PATTERN';

const PATTERN_REASONS = new Set(['INCLUDE_PATTERN', 'EXCLUDE_PATTERN']);
const pathOf = (url: URL) => url.pathname.replace(/(?<=.)\/$/, '');

/** Whether a link refused for `reason` is the seed's own path with another query: what `seedPathNote` tells of. */
export function refusedSeedPath(seed: URL, url: string, reason: string): boolean {
  if (!PATTERN_REASONS.has(reason)) return false;
  const link = URL.parse(url);
  return link !== null && link.origin === seed.origin && pathOf(link) === pathOf(seed) && link.search !== seed.search;
}

/**
 * What a completed crawl's status says when it kept fewer pages than `limit` and its patterns refused `refused`, a link
 * to its seed's own path (`refusedSeedPath`): the listing's other pages were never read, without a word (upstream
 * says none either). Patterns see the path alone unless `regexOnFullURL` is set.
 */
export function seedPathNote(seedUrl: string, refused: string, options: PathPatternOptions): string | undefined {
  const seed = URL.parse(seedUrl);
  if (!seed) return undefined;
  const path = pathOf(seed);
  const exact = `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
  const forQuery = options.regexOnFullURL
    ? 'a pattern that matches its query'
    : '`regexOnFullURL: true` with a pattern that matches its query (the patterns then see the whole URL)';
  return (
    `Links to the seed's own path with another query were refused by \`includePaths\`/\`excludePaths\`, such as ` +
    `${redactUrl(refused)} (the listing's next pages or filters), and the crawl ended below its limit: the pages ` +
    `they list were not read. To follow them, set ${forQuery}, or add a pattern that matches the seed's path ` +
    `(\`${exact}\`) to \`includePaths\`.`
  );
}
