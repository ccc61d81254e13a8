/**
 * Which Latin single-byte charset a page that declares none is in, by the letters each reading gives. The Western,
 * Central European, Baltic and Turkish charsets share ASCII and differ in their upper half, and a short page gives
 * the statistical detector too little text to tell them apart (a French title and a line read as ISO-8859-2 turn
 * `è` into `č` and `à` into `ŕ`; a Polish one read as windows-1252 turns `ł` into `³`). A reading is right when its
 * accented letters are all letters of one language: `Mañana` (Spanish) rather than `Mańana` (no language has `ń`
 * beside `á`), `Zażółć` (Polish) rather than `Za¿ó³æ` (signs inside a word).
 */

import { letterScore } from './letters.js';

/** The Latin single-byte charsets tried against each other (WHATWG names; ISO-8859-1 and -9 read as 1252 and 1254). */
export const LATIN_CHARSETS: readonly string[] = [
  'windows-1252',
  'iso-8859-15',
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

/**
 * A grave or circumflex vowel before another vowel, or `œ` after one: no Western language writes them (`è` ends a
 * syllable before a consonant, `œ` follows one), while Central European `č`, `ě`, `ŕ`, `ś` read as `è`, `ì`, `à`,
 * `œ` often stand there (`Poèasie`, `Wiadomoœci`).
 */
const VOWEL_CLASH = /[àèìòùâêîôû][aeiouyàáâèéêìíîòóôùúû]|[aeiouy]œ/giu;

/**
 * How well `text` reads as one of the languages above (`letterScore`), -1 more for each grave or circumflex vowel
 * before a vowel or `œ` after one (`Poèasie`).
 */
export function latinScore(text: string): number {
  let clashes = 0;
  for (const _ of text.matchAll(VOWEL_CLASH)) clashes++;
  return letterScore(text, ALPHABETS) - clashes;
}
