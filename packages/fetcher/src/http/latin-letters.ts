/**
 * Which Latin single-byte charset a page that declares none is in, by the letters each reading gives. The Western,
 * Central European, Baltic and Turkish charsets share ASCII and differ in their upper half, and a short page gives
 * the statistical detector too little text to tell them apart (a French title and a line read as ISO-8859-2 turn
 * `è` into `č` and `à` into `ŕ`; a Polish one read as windows-1252 turns `ł` into `³`). A reading is right when its
 * accented letters are all letters of one language: `Mañana` (Spanish) rather than `Mańana` (no language has `ń`
 * beside `á`), `Zażółć` (Polish) rather than `Za¿ó³æ` (signs inside a word).
 */

/** The Latin single-byte charsets tried against each other (WHATWG names; ISO-8859-1 and -9 read as 1252 and 1254). */
export const LATIN_CHARSETS: readonly string[] = [
  'windows-1252',
  'windows-1250',
  'iso-8859-2',
  'windows-1257',
  'windows-1254',
];

/** The letters beyond ASCII of the languages written in these charsets, lower case (`İ` as itself). */
const ALPHABETS: readonly string[] = [
  'àâçéèêëîïôœùûüÿ', // French (its `æ`, in two Latin words, is rarer than Polish `ć` read as it)
  'äöüß', // German
  'áéíñóúü', // Spanish
  'áâãàçéêíóôõú', // Portuguese
  'àèéìíîòóùú', // Italian
  'àçèéíïòóúü', // Catalan
  'áéèëïóöü', // Dutch
  'åäöé', // Swedish
  'æøåéòôó', // Danish, Norwegian
  'äöåšž', // Finnish
  'áðéíóúýþæö', // Icelandic
  'çë', // Albanian
  'ąćęłńóśźż', // Polish
  'áčďéěíňóřšťúůýž', // Czech
  'áäčďéíĺľňóôŕšťúýž', // Slovak
  'áéíóöőúüű', // Hungarian
  'čćđšž', // Slovene, Croatian, Bosnian, Serbian in Latin
  'ăâîșşțţ', // Romanian
  'ąčęėįšųūž', // Lithuanian
  'āčēģīķļņšūž', // Latvian
  'äöõüšž', // Estonian
  'çğıİöşü', // Turkish
];

const LETTER = /\p{L}/u;
/** A word with a letter past ASCII in it. */
const ACCENTED_WORD = /\p{L}*[^\p{ASCII}\P{L}]\p{L}*/gu;
/**
 * A grave or circumflex vowel before another vowel, or `œ` after one: no Western language writes them (`è` ends a
 * syllable before a consonant, `œ` follows one), while Central European `č`, `ě`, `ŕ`, `ś` read as `è`, `ì`, `à`,
 * `œ` often stand there (`Poèasie`, `Wiadomoœci`).
 */
const VOWEL_CLASH = /[àèìòùâêîôû][aeiouyàáâèéêìíîòóôùúû]|[aeiouy]œ/giu;
/** `Ville`, `ville`, `VILLE`: a word's case as text has it (`ĄOferta`, `żOlvidó` are a sign read as a letter). */
const WELL_CASED = /^(?:\p{Lu}?[^\p{Lu}]*|[^\p{Ll}]*)$/u;

/**
 * How well `text` reads as one of the languages above: over its characters past ASCII, +1 for each letter of the
 * language that fits best, -1 for each other letter, each control character and each sign between two letters
 * (`Og³oszenia`) and each grave or circumflex vowel before a vowel or `œ` after one (`Poèasie`); -2 for each word with
 * such a letter whose case is not as text has it (`ĄOferta`). Punctuation and spaces between words count nothing.
 */
export function latinScore(text: string): number {
  const letters = new Map<string, number>();
  let penalty = 0;
  for (const [word] of text.matchAll(ACCENTED_WORD)) if (!WELL_CASED.test(word)) penalty += 2;
  for (const _ of text.matchAll(VOWEL_CLASH)) penalty++;
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
  for (const alphabet of ALPHABETS) {
    let inside = 0;
    for (const [letter, count] of letters) if (alphabet.includes(letter)) inside += count;
    best = Math.max(best, 2 * inside - total);
  }
  return best - penalty;
}
