import { lazyRequire } from '@crawlkit/options/lazy-module';
import type * as Re2js from 're2js';

// Loaded by the first pattern compiled: a crawl or map without patterns, and a scrape, never load it.
const re2js = lazyRequire<typeof Re2js>(import.meta.url, 're2js');

/** A user's path pattern, compiled: an unanchored search that takes time linear in the text searched. */
export interface PathPattern {
  test(text: string): boolean;
}

/**
 * Compiles a user's `includePaths`/`excludePaths` pattern, written in JavaScript's syntax, for RE2's linear-time
 * engine (`re2js`, a pure-JS port): a pattern such as `(a+)+$` that backtracks for ever in `RegExp` on a long URL
 * answers at once. A pattern JavaScript rejects gets JavaScript's message; one RE2 cannot run (lookahead,
 * backreferences) gets a message that says what to write instead. Lookbehind runs.
 */
export function compilePathPattern(source: string): { pattern: PathPattern } | { error: string } {
  try {
    new RegExp(source);
  } catch (error) {
    return { error: (error as Error).message };
  }
  // re2js reads a named backreference as the letters `k<name>`: refused here rather than matching something else.
  if (/\\k</.test(source) && /\(\?<[^=!]/.test(source)) return { error: unsupported(source, 'backreference') };
  const { RE2JS } = re2js();
  try {
    return { pattern: RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.LOOKBEHINDS) };
  } catch (error) {
    return { error: unsupported(source, (error as Error).message) };
  }
}

const ENGINE =
  "crawlkit runs path patterns in time linear in the URL's length (RE2), so that no pattern can hang a crawl";

function unsupported(source: string, message: string): string {
  const named = JSON.stringify(source);
  if (/\(\?[=!]/.test(source)) {
    return (
      `${named} uses a lookahead ((?=…) or (?!…)), which is not supported: ${ENGINE}. ` +
      'Put what a (?!…) leaves out in excludePaths instead (includePaths ["^/docs/"] with excludePaths ["^/docs/private/"])'
    );
  }
  if (/\\[1-9]|\\k</.test(source)) {
    return `${named} uses a backreference (\\1, \\k<name>), which is not supported: ${ENGINE}. Spell the repeated part out`;
  }
  return `${named} cannot be run (${message}): ${ENGINE}, which does not have this construct`;
}
