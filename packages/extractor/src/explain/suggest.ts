// The options that would keep a dropped block (checked by extracting the page again with them), or drop a kept one.
import type { Element } from 'domhandler';

import { contains } from '../dom/walk.js';

import { extractPage } from '../page.js';
import type { ExplainOptions, ExplainedBlock } from './explain-page.js';
import type { Handles } from './handles.js';

/** Options of `extractPage` (and of a v2 scrape) that change a block's verdict. */
export interface Suggestion {
  /** Keep these elements (the main-content rules do not run then: the v2 boilerplate selectors do). */
  includeTags?: string[];
  /** Drop these elements. */
  excludeTags?: string[];
  onlyMainContent?: boolean;
  /** Whether extracting the page again with these options kept the block (or dropped it, for excludeTags). */
  checked: boolean;
}

/** Checks made on one page at most: each extracts the whole page again. */
export const MAX_SUGGESTIONS = 25;

/** A dropped block gets a suggestion by default when it holds this many characters (a sentence, not a label). */
const MIN_SUGGESTED = 60;

/** What `suggestOptions` needs of the explanation. */
export interface SuggestContext {
  handles: Handles;
  /** Handles of the elements the main content is made of. */
  containerHandles: string[];
  /** Those elements (of the page as parsed). */
  containerElements: Element[];
  /** The element (of the page as parsed) that a block's rule removed, or the block itself, by the block's index. */
  targetOf: (index: number) => Element;
  /** A selector matching a kept block alone in the cleaned output, where excludeTags apply. */
  excludeHandleOf: (index: number) => string;
}

/**
 * Adds a `suggestion` to the blocks `options.suggest` chooses. A dropped block: includeTags holding the main
 * content's elements and the element its rule removed (the block itself when it lay outside the container), with
 * onlyMainContent as asked and, when that does not keep it, false; each checked by extracting the page again. A kept
 * block: excludeTags holding it. Blocks dropped by the caller's own excludeTags get none.
 */
export function suggestOptions(
  html: string,
  options: ExplainOptions,
  blocks: ExplainedBlock[],
  ctx: SuggestContext,
): void {
  const wanted =
    options.suggest === false
      ? () => false
      : typeof options.suggest === 'function'
        ? options.suggest
        : (b: ExplainedBlock) => b.verdict === 'dropped' && b.text.length >= MIN_SUGGESTED;
  const onlyMainContent = options.onlyMainContent ?? true;
  const base = options.includeTags?.length ? options.includeTags : ctx.containerHandles;
  // one check per distinct option set, each block of the set judged on its output
  const checked = new Map<string, string[]>();
  for (const block of blocks) {
    if (checked.size >= MAX_SUGGESTIONS) break;
    if (!wanted(block)) continue;
    if (block.verdict === 'kept') {
      const excludeTags = [...(options.excludeTags ?? []), ctx.excludeHandleOf(block.index)];
      const output = outputWords(html, { ...options, excludeTags }, options.includeTags ?? [], onlyMainContent);
      checked.set(JSON.stringify(excludeTags), output);
      block.suggestion = { excludeTags, checked: !holdsRun(output, words(block.text)) };
      continue;
    }
    if (block.rule === 'exclude-tags') continue;
    // includeTags keeps its matches whole (the main-content rules do not run): a block inside the container needs
    // only the container
    const el = ctx.targetOf(block.index);
    const inside = !options.includeTags?.length && ctx.containerElements.some((c) => c === el || contains(c, el));
    const includeTags = inside ? [...base] : [...new Set([...base, ctx.handles.of(el)])];
    for (const only of onlyMainContent ? [true, false] : [false]) {
      const key = JSON.stringify([includeTags, only]);
      if (!checked.has(key)) {
        checked.set(key, outputWords(html, options, includeTags, only));
      }
      if (holdsRun(checked.get(key)!, words(block.text))) {
        block.suggestion = { includeTags, ...(only ? {} : { onlyMainContent: false }), checked: true };
        break;
      }
    }
  }
}

/** The words of the markdown `extractPage` gives with these options. */
function outputWords(html: string, options: ExplainOptions, includeTags: string[], onlyMainContent: boolean): string[] {
  const page = extractPage(html, {
    url: options.url,
    onlyMainContent,
    includeTags,
    ...(options.excludeTags ? { excludeTags: options.excludeTags } : {}),
    formats: { markdown: true },
  });
  return words(withoutUrls(page.markdown ?? ''));
}

/** Markdown without its link and image destinations, whose words are not the page's text. */
export function withoutUrls(markdown: string): string {
  return markdown.replace(/!\[[^\]]*\]\([^)]*\)/g, ' ').replace(/\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, ']');
}

/** Lower-cased words (letters, digits, underscore), as the WCXB scorer counts them. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** Whether `haystack` holds the first words of `needle` (up to 12) in a row. */
export function holdsRun(haystack: string[], needle: string[]): boolean {
  const run = needle.slice(0, 12);
  if (run.length === 0) return false;
  outer: for (let i = 0; i + run.length <= haystack.length; i++) {
    for (let k = 0; k < run.length; k++) if (haystack[i + k] !== run[k]) continue outer;
    return true;
  }
  return false;
}
