import { stem, wordWeight, words } from './tokens.js';
import type { SearchTerms } from './query.js';
import type { SearchText } from '../contracts/search.js';

/** Words a snippet holds at most (FTS5's `snippet()` was asked for as many); unspaced script weighs `wordWeight`. */
export const SNIPPET_WORDS = 24;

/** Whether a folded word matches a query's term (a stem, or a prefix). */
function matcher(terms: SearchTerms): (word: string) => boolean {
  const all = [...terms.any, ...terms.phrases.flat()];
  const stems = new Set(all.filter((t) => !t.prefix).map((t) => t.term));
  const prefixes = all.filter((t) => t.prefix).map((t) => t.term);
  // A text's words are mostly ones already seen: each is stemmed once.
  const seen = new Map<string, boolean>();
  return (word) => {
    let matches = seen.get(word);
    if (matches === undefined) {
      const stemmed = stem(word);
      matches = stems.has(stemmed) || prefixes.some((p) => stemmed.startsWith(p) || word.startsWith(p));
      seen.set(word, matches);
    }
    return matches;
  };
}

/**
 * What a hit shows of its page (`SearchHit.snippet`, a result's `description`): the passage of its text that holds
 * the most query words; when its text holds none (the page matched by its title or description), its meta
 * description, else the start of its text. Never the title again: a text that starts with it (the page's H1) is
 * read from after it.
 */
export function hitSnippet(page: Pick<SearchText, 'title' | 'description' | 'text'>, terms: SearchTerms): string {
  const text = withoutTitle(page.text, page.title);
  const matched = snippetOf(text, terms, true);
  if (matched !== undefined) return matched;
  return page.description.trim() ? snippetOf(page.description, terms) : snippetOf(text, terms);
}

/** `text` without its first line when that line is the title or its first words (`Retries` of `Retries | Docs`). */
function withoutTitle(text: string, title: string): string {
  const match = /^\s*([^\n]*)\n/.exec(text);
  const first = match?.[1]?.trim();
  if (!match || !first || !title) return text;
  const name = (s: string) =>
    words(s)
      .map((w) => w.word)
      .join(' ');
  const line = name(first);
  return line && `${name(title)} `.startsWith(`${line} `) ? text.slice(match[0].length) : text;
}

/**
 * The window of `text` of at most `SNIPPET_WORDS` words that holds the most query words, with an ellipsis where it
 * cuts: what every driver answers as the snippet (FTS5's `snippet()` did the same). The start of the text when
 * nothing matches, or undefined with `matchedOnly`.
 */
export function snippetOf(text: string, terms: SearchTerms): string;
export function snippetOf(text: string, terms: SearchTerms, matchedOnly: true): string | undefined;
export function snippetOf(text: string, terms: SearchTerms, matchedOnly = false): string | undefined {
  const found = words(text);
  if (found.length === 0) return matchedOnly ? undefined : '';
  const matches = matcher(terms);
  const hit = found.map((w) => (matches(w.word) ? 1 : 0));
  const weight = found.map(wordWeight);
  // The window ending at each word that holds the most matches (its words weighing at most SNIPPET_WORDS).
  let best = 0;
  let bestCount = -1;
  let count = 0;
  let start = 0;
  let size = 0;
  for (let i = 0; i < found.length; i++) {
    count += hit[i]!;
    size += weight[i]!;
    while (size > SNIPPET_WORDS) {
      size -= weight[start]!;
      count -= hit[start++]!;
    }
    if (count > bestCount) {
      bestCount = count;
      best = start;
    }
  }
  if (matchedOnly && bestCount <= 0) return undefined;
  // Start the window at its first match, so the reader sees the words found first (but keep it full at the end).
  const first = hit.indexOf(1, best);
  if (first !== -1 && first - best > 2) {
    let lastStart = found.length;
    for (let tail = 0; lastStart > 0 && tail + weight[lastStart - 1]! <= SNIPPET_WORDS; lastStart--) {
      tail += weight[lastStart - 1]!;
    }
    best = Math.max(0, Math.min(first - 2, lastStart));
  }
  let last = best;
  size = weight[best]!;
  while (last + 1 < found.length && size + weight[last + 1]! <= SNIPPET_WORDS) size += weight[++last]!;
  const from = best === 0 ? 0 : found[best]!.start;
  const to = last === found.length - 1 ? text.length : found[last]!.end;
  return `${best > 0 ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ').trim()}${to < text.length ? '…' : ''}`;
}
