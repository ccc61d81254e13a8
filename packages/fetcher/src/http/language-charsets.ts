/**
 * What a page's language says of its encoding when nothing declares one: the legacy charsets its pages were written
 * in before UTF-8. A short page gives the statistical detector too little text (a windows-1251 title and a line tie
 * with Latin-1), while `<html lang="ru">` or `Content-Language: ru` settle it.
 */

/** A language's legacy charsets (WHATWG names), most common first, and the script its letters are in. */
interface LegacyCharsets {
  charsets: readonly string[];
  /** Unicode script of its letters; absent for Latin-script languages (no check of the decoded words). */
  script?: 'Cyrillic' | 'Greek' | 'Hebrew' | 'Arabic' | 'Thai';
}

const cyrillic = (...charsets: string[]): LegacyCharsets => ({ charsets, script: 'Cyrillic' });
const latin = (...charsets: string[]): LegacyCharsets => ({ charsets });

/** Keyed by primary language subtag. */
const LANGUAGES: Readonly<Record<string, LegacyCharsets>> = {
  ru: cyrillic('windows-1251', 'koi8-r', 'iso-8859-5', 'ibm866'), // Russian: Windows, Unix mail and web, ISO, DOS
  uk: cyrillic('windows-1251', 'koi8-u'), // Ukrainian: Windows, then the Unix KOI8 with Ukrainian letters
  be: cyrillic('windows-1251'), // Belarusian
  bg: cyrillic('windows-1251'), // Bulgarian
  sr: cyrillic('windows-1251'), // Serbian, in Cyrillic (`sr-Latn` is below)
  mk: cyrillic('windows-1251'), // Macedonian
  kk: cyrillic('windows-1251'), // Kazakh (its own KZ-1048 is rare on the web)
  ky: cyrillic('windows-1251'), // Kyrgyz
  tg: cyrillic('windows-1251'), // Tajik
  mn: cyrillic('windows-1251'), // Mongolian, in Cyrillic
  el: { charsets: ['windows-1253', 'iso-8859-7'], script: 'Greek' }, // Greek
  he: { charsets: ['windows-1255', 'iso-8859-8'], script: 'Hebrew' }, // Hebrew (8859-8 visual order is older)
  yi: { charsets: ['windows-1255'], script: 'Hebrew' }, // Yiddish
  ar: { charsets: ['windows-1256', 'iso-8859-6'], script: 'Arabic' }, // Arabic
  fa: { charsets: ['windows-1256'], script: 'Arabic' }, // Persian
  ur: { charsets: ['windows-1256'], script: 'Arabic' }, // Urdu
  th: { charsets: ['windows-874'], script: 'Thai' }, // Thai (TIS-620, a subset of windows-874)
  pl: latin('windows-1250', 'iso-8859-2'), // Polish: Windows, then ISO (common on Unix-served pages)
  cs: latin('windows-1250', 'iso-8859-2'), // Czech
  sk: latin('windows-1250', 'iso-8859-2'), // Slovak
  hu: latin('windows-1250', 'iso-8859-2'), // Hungarian
  sl: latin('windows-1250', 'iso-8859-2'), // Slovene
  hr: latin('windows-1250', 'iso-8859-2'), // Croatian
  bs: latin('windows-1250', 'iso-8859-2'), // Bosnian
  ro: latin('windows-1250', 'iso-8859-2'), // Romanian (8859-16 is rare on the web)
  tr: latin('windows-1254'), // Turkish (WHATWG reads ISO-8859-9 as windows-1254)
  az: latin('windows-1254'), // Azerbaijani, in Latin
  lt: latin('windows-1257', 'iso-8859-13'), // Lithuanian
  lv: latin('windows-1257', 'iso-8859-13'), // Latvian
  vi: latin('windows-1258'), // Vietnamese
};

/** Serbian, Azerbaijani, ... written in another script than their entry's: the tag's script subtag decides. */
const SCRIPT_VARIANTS: Readonly<Record<string, LegacyCharsets>> = {
  'sr-latn': latin('windows-1250', 'iso-8859-2'), // Serbian in Latin
  'az-cyrl': cyrillic('windows-1251'), // Azerbaijani in Cyrillic
  'uz-cyrl': cyrillic('windows-1251'), // Uzbek in Cyrillic
};

/** How far into the page its `<html lang>` is looked for (it is the first tag but a doctype and comments). */
const LANG_BYTES = 4096;

/**
 * The language the page's root element declares (`<html lang="ru">`, `xml:lang`), read from its bytes before they
 * are decoded: tag names and attributes are ASCII in every charset this table holds.
 */
export function documentLanguage(body: Uint8Array): string | undefined {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, LANG_BYTES)).toString('latin1');
  const tag = /<html\b[^>]*>/i.exec(head)?.[0];
  return tag ? /\s(?:xml:)?lang\s*=\s*["']?\s*([A-Za-z][A-Za-z0-9-]*)/i.exec(tag)?.[1] : undefined;
}

/** The legacy charsets of a language tag (`ru`, `sr-Latn-RS`; the first of a `Content-Language` list), if known. */
export function legacyCharsets(tag: string | undefined): LegacyCharsets | undefined {
  const parts = tag?.split(',')[0]!.trim().toLowerCase().replace(/_/g, '-').split('-');
  if (!parts?.[0]) return undefined;
  const script = parts[1]?.length === 4 ? SCRIPT_VARIANTS[`${parts[0]}-${parts[1]}`] : undefined;
  return script ?? LANGUAGES[parts[0]];
}

const LETTERS = /\p{L}+/gu;
const ASCII_LETTER = /[A-Za-z]/;

/** `Москва`, `москва`, `МОСКВА`: a word's case as text has it (a script without case always passes). */
const WELL_CASED = /^(?:\p{Lu}?[^\p{Lu}]*|[^\p{Ll}]*)$/u;

/**
 * How well `text`, decoded with one of the language's charsets, reads as that language, or -1 when it does not: an
 * undecodable byte, or in a non-Latin script no more words of that script alone than words that mix it with ASCII
 * letters (a Latin-1 page read as windows-1251 turns `café` into `cafй`). The score counts the letters of its words
 * in the script alone whose case is as text has it: KOI8-R read as windows-1251 (or the reverse) turns `Москва`
 * into `нПУЛЧБ`, letters of the right script in the wrong case, and ISO-8859-5 read as DOS's ibm866 turns half of
 * them into box-drawing signs. Latin-script languages score 0.
 */
export function languageScore(text: string, language: LegacyCharsets): number {
  if (text.includes('\uFFFD')) return -1;
  if (!language.script) return 0;
  const inScript = new RegExp(`\\p{Script=${language.script}}`, 'u');
  let pure = 0;
  let mixed = 0;
  let letters = 0;
  for (const [word] of text.matchAll(LETTERS)) {
    if (!inScript.test(word)) continue;
    if (ASCII_LETTER.test(word)) {
      mixed++;
    } else {
      pure++;
      if (WELL_CASED.test(word)) letters += word.length;
    }
  }
  return pure > mixed ? letters : -1;
}
