/**
 * A search query, parsed once in one way for every driver. The syntax is a web search box's:
 *
 * - `word word`: loose words; a page matches when it has at least one, and ranks higher the more it has;
 * - `"two words"`: a phrase, which every page found must contain, words adjacent and in order;
 * - `word*`: a prefix (`crawl*` finds crawler, crawling);
 * - `-word`, `-"two words"`: pages with it are left out.
 *
 * A run of unspaced script (`tokens.ts`) is its pairs of characters: bare, each pair is a loose word (`東京都` finds
 * pages with `東京` or `京都`, those with both first, as Lucene's CJK analyser does); quoted, they are a phrase. A
 * single character is a prefix (`猫` finds `猫` in `黒猫` and in `猫舌`).
 *
 * Everything else (parentheses, `AND`, `NEAR`, `:`, a lone `*`, an unbalanced quote) is read as words or as spaces:
 * no query is ever handed to a database's own query language.
 */
import { STOP_WORDS, stem, words, type Word } from './tokens.js';

const exact = (word: string): QueryTerm => ({ word, term: stem(word), prefix: false });
const prefixOf = (word: string): QueryTerm => ({ word, term: word, prefix: true });

/**
 * The words of a piece of a query, each a list of terms: a spaced word, or a run of unspaced script as its pairs (a
 * single character as a prefix). The tails are left out: a word ending inside a run is found by its pairs alone.
 */
function queryWords(found: readonly Word[]): QueryTerm[][] {
  const units: QueryTerm[][] = [];
  let run: QueryTerm[] | undefined;
  for (const w of found) {
    if (w.unspaced === 'pair') {
      if (!run) units.push((run = []));
      run.push(exact(w.word));
      continue;
    }
    run = undefined;
    if (w.unspaced === 'single') units.push([prefixOf(w.word)]);
    else if (w.unspaced !== 'tail') units.push([exact(w.word)]);
  }
  return units;
}

/**
 * A quoted phrase's terms, as the index holds them in a row: a run's tail is kept where another word follows it
 * (`"東京 大阪"` is `東京 京 大阪`), left out at the end (the phrase may end inside a longer run); for the same reason
 * a character alone at the end is a prefix (`"iPhone用"` ends inside `iPhone用の`, whose terms are `iphone 用の …`).
 */
function phraseTerms(found: readonly Word[]): QueryTerm[] {
  const kept = found.filter((w, i) => w.unspaced !== 'tail' || i < found.length - 1);
  return kept.map((w, i) => (w.unspaced === 'single' && i > 0 && i === kept.length - 1 ? prefixOf : exact)(w.word));
}

/** One word of a query. */
export interface QueryTerm {
  /** The word as written, lower-case, without diacritics (what SQLite's tokenizer is given). */
  word: string;
  /** What the JavaScript indexes look up: its stem, or the folded word itself for a prefix. */
  term: string;
  /** Matches every indexed term that starts with `term`. */
  prefix: boolean;
}

/** A parsed query (see the module comment). */
export interface SearchTerms {
  /** Loose words and prefixes: at least one must match when there is no phrase; each adds to the rank. */
  any: QueryTerm[];
  /** Phrases every result contains (each its words, in order). */
  phrases: QueryTerm[][];
  /** Words and phrases no result contains. */
  none: QueryTerm[][];
}

/** The most characters a query may have. */
export const MAX_QUERY_LENGTH = 1_000;
/** The most words and phrases a query may have. */
export const MAX_QUERY_TERMS = 32;

export type ParsedQuery = { ok: true; terms: SearchTerms } | { ok: false; error: string };

const PIECE = /(-?)"([^"]*)("?)|(-?)([^\s"]+)/g;

/** Parses `text`; the error says what to change in it. */
export function parseSearchQuery(text: string): ParsedQuery {
  if (text.length > MAX_QUERY_LENGTH) {
    return {
      ok: false,
      error: `The query has ${text.length} characters; at most ${MAX_QUERY_LENGTH} are read. Search for fewer words.`,
    };
  }
  const terms: SearchTerms = { any: [], phrases: [], none: [] };
  const loose: QueryTerm[] = [];
  for (const match of text.matchAll(PIECE)) {
    const [, quotedMinus, quoted, , minus, bare] = match;
    if (quoted !== undefined) {
      const found = words(quoted);
      const phrase = phraseTerms(found);
      if (phrase.length === 0) continue;
      if (quotedMinus) terms.none.push(phrase);
      else if (phrase.length === 1) loose.push(...queryWords(found)[0]!);
      else terms.phrases.push(phrase);
      continue;
    }
    const found = queryWords(words(bare!));
    if (found.length === 0) continue;
    const prefix = bare!.endsWith('*') && found.length === 1 && found[0]!.length === 1;
    if (minus && found.length === 1) {
      terms.none.push(found[0]!.map((t) => (t.prefix ? exact(t.word) : t)));
      continue;
    }
    // `a-b`, `x.y`, `c++`: the word's parts, each loose (FTS syntax characters are separators like any other).
    for (const t of found.flat()) loose.push(prefix ? prefixOf(t.word) : t);
  }
  const meaningful = loose.filter((t) => t.prefix || !STOP_WORDS.has(t.word));
  const seen = new Set<string>();
  for (const t of meaningful.length ? meaningful : loose) {
    const id = `${t.prefix ? '*' : ''}${t.term}`;
    if (!seen.has(id)) terms.any.push(t);
    seen.add(id);
  }
  const count = terms.any.length + terms.phrases.length + terms.none.length;
  if (terms.any.length === 0 && terms.phrases.length === 0) {
    return {
      ok: false,
      error: text.trim()
        ? 'The query has no word to look for (only punctuation, or only excluded words). Add a word.'
        : 'The query is empty. Send the words to look for.',
    };
  }
  if (count > MAX_QUERY_TERMS) {
    const pairs = words(text).some((w) => w.unspaced === 'pair');
    return {
      ok: false,
      error:
        `The query has ${count} words and phrases; at most ${MAX_QUERY_TERMS} are read. Search for fewer words.` +
        (pairs ? ' (In Chinese, Japanese, Korean or Thai each pair of characters counts as a word.)' : ''),
    };
  }
  return { ok: true, terms };
}
