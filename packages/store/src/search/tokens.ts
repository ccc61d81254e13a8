/**
 * How text becomes search terms, the same way in every driver: words (runs of letters and digits, with their marks)
 * lower-cased, diacritics removed (not the marks that spell a Thai or Indic word), then Porter-stemmed. The memory and
 * Redis indexes keep these terms; SQLite's FTS5 is handed the same words (`indexedText`) and stems them itself, so the
 * three find the same pages for the same query.
 *
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese) and Korean, whose
 * particles are written glued to the word before them, have no word boundary to read: a run of them becomes its
 * overlapping pairs of characters (`東京都` is `東京`, `京都`), the bigrams of Lucene's CJK analyser, then its last
 * character alone (`都`, a "tail"), so that every character starts a term. A word of two characters or more is then
 * found inside any run that holds it, by its pairs in a row; a single character by the terms it starts (a prefix).
 * `docs/decisions.md` says why bigrams rather than `Intl.Segmenter`.
 */
import { stemmer } from 'stemmer';

const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
/**
 * Marks folding removes: the accents shared by every script (`é` is `e` and U+0301; Arabic vowel signs) and Hebrew
 * points, which a word may be written with or without, but not the kana voicing marks (`で` is not `て`) nor the marks
 * of a script's own (Thai `ไข่` an egg and `ไข้` a fever, Devanagari `कमल` a lotus and `कमाल` a wonder): those spell
 * another word.
 */
const MARKS = /(?![\u3099\u309a])(?=\p{M})[\p{sc=Inherited}\p{sc=Hebrew}]/gu;
const ASCII = /^[\p{ASCII}]*$/u;
/** A letter of the scripts read as pairs of characters (`ー`, `々` and the kana marks belong to them too). */
const UNSPACED =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const MARK = /\p{M}/u;
const FOLDED_WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** A character of unspaced script with its marks, or marks alone. */
const UNIT = /\P{M}[\p{M}\uff9e\uff9f]*|\p{M}+/gu;
/** Characters of unspaced script folded (a few thousand are in use): folding one costs two normalizations. */
const foldedUnits = new Map<string, string[]>();
const MAX_FOLDED_UNITS = 65_536;

/**
 * A word of a text, folded, with where it is written; `pair`, `tail`, `single`: a piece of a run of unspaced script.
 */
export interface Word {
  word: string;
  start: number;
  end: number;
  /** A pair of characters of a run, its last character alone (`tail`), or a run of one character (`single`). */
  unspaced?: 'pair' | 'tail' | 'single';
}

/**
 * What a word weighs when words are counted for a reader (a snippet's length, a passage's): a pair or tail of a run of
 * unspaced script a half, as a word of those scripts is about two characters.
 */
export function wordWeight(word: Word): number {
  return word.unspaced === 'pair' || word.unspaced === 'tail' ? 0.5 : 1;
}

/** Common English words a query's loose words skip (they match nearly every page); phrases keep them. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what when ' +
    'where which who whom why will with would you your about after all also any before between both each more ' +
    'most other over same should some such only own too very just'
  ).split(' '),
);

/** The words of `text` as written, lower-cased and without diacritics, with where each starts and ends. */
export function words(text: string): Word[] {
  const found: Word[] = [];
  for (const match of text.matchAll(WORD)) pieces(match[0], match.index, found);
  return found;
}

/** The words of one run of letters, digits and marks written at `at`, appended to `into`. */
function pieces(run: string, at: number, into: Word[]): void {
  if (ASCII.test(run)) {
    into.push({ word: run.toLowerCase(), start: at, end: at + run.length });
    return;
  }
  // Split where the run passes between unspaced script and the rest (`iPhone用の`); a mark stays with its letter.
  let start = 0;
  let unspaced = false;
  for (let i = 0; i < run.length;) {
    const code = run.codePointAt(i)!;
    const kind = kindOf(code);
    if (kind !== MARK_KIND) {
      const isUnspaced = kind === UNSPACED_KIND;
      if (i > 0 && isUnspaced !== unspaced) {
        piece(run.slice(start, i), at + start, unspaced, into);
        start = i;
      }
      unspaced = isUnspaced;
    }
    i += code > 0xffff ? 2 : 1;
  }
  piece(run.slice(start), at + start, unspaced, into);
}

const [OTHER_KIND, UNSPACED_KIND, MARK_KIND] = [0, 1, 2];
/** `kindOf` of the characters of the Basic Multilingual Plane, 0 when not read yet (one regex test each, once). */
const kinds = new Uint8Array(0x10000);

/** Whether a character is a mark, of unspaced script, or else (a text's characters are mostly ones already seen). */
function kindOf(code: number): number {
  const known = code <= 0xffff ? kinds[code]! : 0;
  if (known) return known - 1;
  const char = String.fromCodePoint(code);
  const kind = MARK.test(char) ? MARK_KIND : UNSPACED.test(char) ? UNSPACED_KIND : OTHER_KIND;
  if (code <= 0xffff) kinds[code] = kind + 1;
  return kind;
}

function piece(text: string, at: number, unspaced: boolean, into: Word[]): void {
  if (!unspaced) {
    // Folding may bring other characters in (`½` is `1⁄2`): they part words, as they do in the text.
    for (const [word] of fold(text).matchAll(FOLDED_WORD)) into.push({ word, start: at, end: at + text.length });
    return;
  }
  // Each character with its marks (and half-width kana with their voicing marks, `ｶﾞ`), folded (one may fold to
  // several: `㌔` is `キロ`, each its own; a Thai or Khmer letter keeps its marks, `ข้`). Kept in parallel arrays:
  // a long text's characters are most of its indexing's work, and an object each was a fifth of it in collection.
  const chars: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let i = 0;
  for (const [written] of text.matchAll(UNIT)) {
    const start = at + i;
    i += written.length;
    let folded = foldedUnits.get(written);
    if (folded === undefined) {
      if (foldedUnits.size >= MAX_FOLDED_UNITS) foldedUnits.clear();
      foldedUnits.set(written, (folded = fold(written).match(UNIT) ?? []));
    }
    for (const char of folded) {
      chars.push(char);
      starts.push(start);
      ends.push(at + i);
    }
  }
  if (chars.length === 1) {
    into.push({ word: chars[0]!, start: starts[0]!, end: ends[0]!, unspaced: 'single' });
    return;
  }
  for (let k = 0; k + 1 < chars.length; k++) {
    into.push({ word: chars[k]! + chars[k + 1]!, start: starts[k]!, end: ends[k + 1]!, unspaced: 'pair' });
  }
  const last = chars.length - 1;
  if (last >= 0) into.push({ word: chars[last]!, start: starts[last]!, end: ends[last]!, unspaced: 'tail' });
}

/** A word lower-cased, without diacritics (Hangul syllables and voiced kana kept whole). */
export function fold(word: string): string {
  if (ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFKD').replace(MARKS, '').normalize('NFC').toLowerCase();
}

/** The stem of a folded word. */
export function stem(word: string): string {
  return stemmer(word);
}

/** A word's term: its stem; a piece of unspaced script as it is (the Porter stemmer changes only Latin letters). */
function termOf(word: Word): string {
  return word.unspaced ? word.word : stem(word.word);
}

/**
 * The search terms of `text`, in order: folded and stemmed words. `known` keeps each run as written with its terms
 * across calls (one query's check of many texts): a text's words are mostly ones already seen, and folding and
 * stemming are most of the work.
 */
export function terms(text: string, known?: Map<string, string[]>): string[] {
  if (!known) return words(text).map(termOf);
  const found: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const written = match[0];
    let runTerms = known.get(written);
    if (runTerms === undefined) {
      const runWords: Word[] = [];
      pieces(written, 0, runWords);
      runTerms = runWords.map(termOf);
      known.set(written, runTerms);
    }
    for (const term of runTerms) found.push(term);
  }
  return found;
}

/** Full-width forms: FTS5's `unicode61` does not fold them. */
const [FULL_WIDTH_FIRST, FULL_WIDTH_LAST] = [0xff00, 0xffef];

/**
 * Whether `text` holds a character FTS5's `unicode61` would read otherwise than `words`: of unspaced script (a run is
 * one word to it), a combining mark (a word separator to it), a full-width form (not folded by it). A loop over the
 * characters with `kindOf`'s table, ASCII skipped at once: a regex of these script classes over a page's text was 70%
 * of its indexing's JavaScript (12 ns a character), this is 4 times cheaper on the WCXB dev pages' texts. Not below
 * U+0080 alone: some Latin-1 characters belong to these scripts too (`·` is also Han by its script extensions).
 */
function readOtherwise(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 0x80) continue;
    const code = text.codePointAt(i)!;
    if (code >= FULL_WIDTH_FIRST && code <= FULL_WIDTH_LAST) return true;
    if (code > 0xffff) i++;
    if (kindOf(code) !== OTHER_KIND) return true;
  }
  return false;
}

/**
 * A text as SQLite's FTS5 is handed it, whose tokenizer (`porter unicode61 remove_diacritics 2`) folds and stems what
 * it reads: the text itself when FTS5 parts it into the same words (its C tokenizer is 3-4 times faster than words
 * made here), else its words, space-separated (the pairs of unspaced script, Korean syllables whole, marks folded).
 * Either way FTS5 holds the words `words` reads, in the same places, and a query hands it the same folded words.
 */
export function indexedText(text: string): string {
  return readOtherwise(text)
    ? words(text)
        .map((w) => w.word)
        .join(' ')
    : text;
}
