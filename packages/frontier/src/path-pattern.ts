import { createRequire } from 'node:module';

import { lazyRequire } from '@crawlkit/options/lazy-module';
import type * as Re2js from 're2js';
import type SafeRegex from 'safe-regex2';

import { globHint } from './glob-hint.js';

const require = createRequire(import.meta.url);
// Loaded by the first pattern compiled: a crawl or map without patterns, and a scrape, never load it.
const re2js = lazyRequire(() => require('re2js') as typeof Re2js);
const safeRegex = lazyRequire(() => require('safe-regex2') as typeof SafeRegex);

/**
 * The most repetitions (`*`, `+`, `?`, `{n,m}`) a pattern RE2 cannot run may hold to run on `RegExp`: with no
 * repetition inside another and at most two, a 2,048-character URL costs it at worst n² steps, milliseconds.
 */
const BACKTRACKING_REPETITIONS = 2;

/** A user's path pattern, compiled: an unanchored search that takes time linear in the text searched. */
export interface PathPattern {
  test(text: string): boolean;
}

/**
 * Compiles a user's `includePaths`/`excludePaths` pattern, written in JavaScript's syntax, for RE2's linear-time
 * engine (`re2js`, a pure-JS port): a pattern such as `(a+)+$` that backtracks for ever in `RegExp` on a long URL
 * answers at once. Lookbehind runs there. What RE2 cannot run (lookahead, backreferences: `^/docs/(?!private)`, as
 * upstream takes it) runs on `RegExp` when it cannot backtrack for long (`safe-regex2`: no repetition inside another,
 * at most `BACKTRACKING_REPETITIONS`); past that it is refused with what to write instead. A pattern JavaScript
 * rejects gets JavaScript's message, and a glob (`/docs/**`) the regex to write instead (`globHint`).
 */
export function compilePathPattern(source: string): { pattern: PathPattern } | { error: string } {
  let native: RegExp;
  try {
    native = new RegExp(source);
  } catch (error) {
    return { error: `${(error as Error).message}${globHint(source)}` };
  }
  // re2js reads a named backreference as the letters `k<name>`: sent to `RegExp` rather than matching something else.
  if (/\\k</.test(source) && /\(\?<[^=!]/.test(source)) return backtracking(source, native, 'backreference');
  const { RE2JS } = re2js();
  try {
    return { pattern: RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.LOOKBEHINDS) };
  } catch (error) {
    return backtracking(source, native, (error as Error).message);
  }
}

/** A pattern RE2 cannot run, on `RegExp` when it cannot backtrack for long, else refused saying why. */
function backtracking(source: string, native: RegExp, why: string): { pattern: PathPattern } | { error: string } {
  if (safeRegex()(native, { limit: BACKTRACKING_REPETITIONS })) return { pattern: native };
  return { error: unsupported(source, why) };
}

const LIMIT =
  'so that no pattern can hang a crawl, crawlkit runs such a pattern only with at most two repetitions (*, +, ?, ' +
  '{n,m}) and none inside another';

function unsupported(source: string, message: string): string {
  const named = JSON.stringify(source);
  if (/\(\?[=!]/.test(source)) {
    return (
      `${named} uses a lookahead ((?=…) or (?!…)) beside more repetitions than it may: ${LIMIT}. Simplify it, or ` +
      'put what a (?!…) leaves out in excludePaths (includePaths ["^/docs/"] with excludePaths ["^/docs/private/"])'
    );
  }
  if (/\\[1-9]|\\k</.test(source)) {
    return `${named} uses a backreference (\\1, \\k<name>) beside more repetitions than it may: ${LIMIT}. Simplify it`;
  }
  return `${named} cannot be run in linear time (${message}), and ${LIMIT}`;
}
