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
