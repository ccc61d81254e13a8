/**
 * Which Cyrillic single-byte charset a page that declares none is in, by the letters each reading gives (as
 * `latinScore` does for the Latin ones). A short Russian, Ukrainian, Bulgarian or Serbian page gives the statistical
 * detector too little text: `Новости` in windows-1251 came out windows-1252 (`Íîâîñòè`), Bulgarian as windows-1250
 * (`Ęŕňŕëîă`), DOS's IBM866 as windows-1252. Read in the right charset its words are Cyrillic letters of one
 * language, cased as text is; read in another they are Latin accents, signs inside words, or Cyrillic letters in the
 * wrong case (KOI8-R and windows-1251 hold the same letters in swapped case: `Москва` becomes `нПУЛЧБ`).
 */

import { letterScore } from './letters.js';

/** The Cyrillic single-byte charsets (WHATWG names), most common on the web first. */
export const CYRILLIC_CHARSETS: readonly string[] = ['windows-1251', 'koi8-r', 'koi8-u', 'iso-8859-5', 'ibm866'];

/** The letters of the languages written in these charsets, lower case. */
const CYRILLIC_ALPHABETS: readonly string[] = [
  'абвгдеёжзийклмнопрстуфхцчшщъыьэюя', // Russian
  'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', // Ukrainian
  'абвгдеёжзійклмнопрстуўфхцчшыьэюя', // Belarusian
  'абвгдежзийклмнопрстуфхцчшщъьюя', // Bulgarian
  'абвгдђежзијклљмнњопрстћуфхцчџш', // Serbian
  'абвгдѓежзѕијклљмнњопрстќуфхцчџш', // Macedonian
];

/** A word of one letter: `Ђ` and `є` are also `€` read from windows-1252 and ISO-8859-15. */
const ONE_LETTER = /(?<!\p{L})\p{L}(?!\p{L})/gu;

/**
 * How well `text` reads as one of the languages above (`letterScore`): its letters in words of Cyrillic alone, words
 * of one letter counting nothing.
 */
export function cyrillicScore(text: string): number {
  return letterScore(text.replace(ONE_LETTER, ' '), CYRILLIC_ALPHABETS, { aloneInWords: true });
}
