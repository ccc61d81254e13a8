/**
 * The score a single-byte charset's reading of a page gets by its letters past ASCII, shared by the Latin and the
 * Cyrillic charsets (`latin-letters.ts`, `cyrillic-letters.ts`).
 */

const LETTER = /\p{L}/u;
const ASCII_LETTER = /[A-Za-z]/;
/** A word with a letter past ASCII in it. */
const ACCENTED_WORD = /\p{L}*[^\p{ASCII}\P{L}]\p{L}*/gu;
/** `Ville`, `ville`, `VILLE`: a word's case as text has it (`ĄOferta`, `żOlvidó` are a sign read as a letter). */
const WELL_CASED = /^(?:\p{Lu}?[^\p{Lu}]*|[^\p{Ll}]*)$/u;

export interface LetterOptions {
  /** Letters beside ASCII letters in one word count as out of every alphabet (`cafй` is `café` read as Cyrillic). */
  aloneInWords?: boolean;
}

/**
 * How well `text` reads as one of `alphabets` (lower case; `İ` kept as itself): over its characters past ASCII, +1 for
 * each letter of the alphabet that fits best, -1 for each other letter, each control character and each sign between
 * two letters (`Og³oszenia`); -2 for each word with such a letter whose case is not as text has it (`ĄOferta`); with
 * `aloneInWords`, -1 for each letter of a word that has ASCII letters too. Punctuation and spaces between words count
 * nothing.
 */
export function letterScore(text: string, alphabets: readonly string[], options: LetterOptions = {}): number {
  const letters = new Map<string, number>();
  let penalty = 0;
  for (const [word] of text.matchAll(ACCENTED_WORD)) if (!WELL_CASED.test(word)) penalty += 2;
  if (options.aloneInWords) {
    text = text.replace(ACCENTED_WORD, (word) => {
      if (!ASCII_LETTER.test(word)) return word;
      for (const char of word) if (char.charCodeAt(0) >= 0x80) penalty++;
      return ' ';
    });
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    const char = text[i]!;
    if (LETTER.test(char)) {
      const lower = char === 'İ' ? char : char.toLowerCase();
      letters.set(lower, (letters.get(lower) ?? 0) + 1);
    } else if (code < 0xa0 || (LETTER.test(text[i - 1] ?? '') && LETTER.test(text[i + 1] ?? ''))) {
      penalty++;
    }
  }
  if (letters.size === 0) return -penalty;
  let total = 0;
  for (const count of letters.values()) total += count;
  let best = -Infinity;
  for (const alphabet of alphabets) {
    let inside = 0;
    for (const [letter, count] of letters) if (alphabet.includes(letter)) inside += count;
    best = Math.max(best, 2 * inside - total);
  }
  return best - penalty;
}
