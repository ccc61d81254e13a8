import { isAscii, isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';

import { lazyRequire } from '@crawlkit/options/lazy-module';
import { textDecoder, type TextDecoding } from '@crawlkit/options/text-decoder';
import type Chardet from 'chardet';
import type * as EncodingSniffer from 'encoding-sniffer/sniffer';
import type Iconv from 'iconv-lite';

import { isHtmlType, isXmlType } from './content-type.js';
import { CYRILLIC_CHARSETS, cyrillicScore } from './cyrillic-letters.js';
import { letterScore } from './letters.js';
import { documentLanguage, languageScore, legacyCharsets } from './language-charsets.js';
import { LATIN_CHARSETS, latinScore } from './latin-letters.js';

const require = createRequire(import.meta.url);
// Loaded by the first body that needs them: the prescan's sniffer (an HTML or XML body whose header declares no
// charset; 25 modules), chardet (no declaration at all and not UTF-8) and iconv-lite (a label outside WHATWG's; 14
// together). A process whose main thread decodes nothing, and pages that declare their charset, load none of them.
const encodingSniffer = lazyRequire(() => require('encoding-sniffer/sniffer') as typeof EncodingSniffer);
const chardet = lazyRequire(() => require('chardet') as typeof Chardet);
const iconv = lazyRequire(() => require('iconv-lite') as typeof Iconv);

/** How far into an HTML or XML document `<meta charset>` and the XML declaration are looked for, in bytes. */
const PRESCAN_BYTES = 8192;
/**
 * The prescan goes in steps of this size and stops at the first declaration (most sit in the first few hundred bytes).
 */
const PRESCAN_STEP = 512;
/** Bytes given to the statistical detector when nothing declares the encoding. */
const DETECT_BYTES = 64 * 1024;
/**
 * Bytes whose reading in each single-byte charset is scored by its letters, from a little before the first non-ASCII
 * one.
 */
const SCORE_BYTES = 4096;

export interface DecodedText {
  text: string;
  /** WHATWG name of the encoding used (`utf-8`, `windows-1252`, `shift_jis`, ...). */
  charset: string;
}

/**
 * Decodes a textual body. The encoding is, in order: a byte-order mark, the `content-type` charset, for HTML and XML a
 * `<meta charset>` / `http-equiv` / XML declaration in the first 8 KiB (WHATWG prescan), then UTF-8 when the bytes are
 * valid UTF-8, then the legacy charsets of the page's language (its `<html lang>`, else the `contentLanguage` header)
 * when the text reads as that language, then a statistical guess (chardet); a guess of a Latin or Cyrillic single-byte
 * charset (or none) is settled by the letters of each such charset's reading (`latinScore`, `cyrillicScore`). A
 * declared Latin-1 over valid, non-ASCII UTF-8 is taken as the mislabel it nearly always is.
 */
export function decodeText(
  body: Uint8Array,
  type: string,
  declaredCharset?: string,
  contentLanguage?: string,
): DecodedText {
  const bom = bomEncoding(body);
  if (bom) return tryDecode(body, bom)!;
  if (declaredCharset) {
    const decoded = tryDeclared(body, declaredCharset);
    if (decoded && !contradictsUtf8(body, decoded)) return decoded;
  }
  if (isHtmlType(type) || isXmlType(type)) {
    const declared = prescan(body);
    if (declared) {
      const decoded = tryDeclared(body, declared);
      if (decoded) return decoded;
    }
  }
  return decodeUndeclared(body, isHtmlType(type) || isXmlType(type), contentLanguage);
}

/**
 * A UTF-8 label (many servers add `charset=utf-8` to every page) over bytes most of whose non-ASCII sequences are not
 * UTF-8 is a mislabel too: read as UTF-8, a legacy page (Shift_JIS, windows-1251, ...) would lose its text to U+FFFD,
 * so the page's own declaration, or else a guess, decides. A UTF-8 page with a few stray bytes keeps its label.
 */
function contradictsUtf8(body: Uint8Array, decoded: DecodedText): boolean {
  if (decoded.charset !== 'utf-8' || isUtf8(body)) return false;
  let invalid = 0;
  let valid = 0;
  const { text } = decoded;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd) invalid++;
    else if (code > 0x7f) valid++;
  }
  return invalid > valid;
}

/**
 * A declared Latin-1 (`iso-8859-1`, the default many servers add) over bytes that are valid UTF-8 with multi-byte
 * sequences is a mislabel: real Latin-1 text almost never forms valid UTF-8, so such bytes are decoded as UTF-8.
 */
function tryDeclared(body: Uint8Array, label: string): DecodedText | undefined {
  if (decoderFor(label.trim().toLowerCase())?.encoding === 'windows-1252' && !isAscii(body) && isUtf8(body)) {
    return utf8(body);
  }
  return tryDecode(body, label);
}

function bomEncoding(body: Uint8Array): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** The encoding declared inside the document (WHATWG prescan), if any. */
function prescan(body: Uint8Array): string | undefined {
  const { Sniffer, ResultType } = encodingSniffer();
  const sniffer = new Sniffer({ maxBytes: PRESCAN_BYTES });
  const end = Math.min(body.length, PRESCAN_BYTES);
  for (let offset = 0; offset < end; offset += PRESCAN_STEP) {
    sniffer.write(body.subarray(offset, Math.min(end, offset + PRESCAN_STEP)));
    if (sniffer.resultType !== ResultType.DEFAULT) return sniffer.encoding;
  }
  return undefined;
}

function decodeUndeclared(body: Uint8Array, markup: boolean, contentLanguage: string | undefined): DecodedText {
  if (isUtf8(body)) return utf8(body);
  const sample = body.subarray(0, DETECT_BYTES);
  const guesses = chardet().analyse(sample);
  const language = legacyCharsets((markup ? documentLanguage(body) : undefined) ?? contentLanguage);
  if (language) {
    // The language's charset whose text reads best as the language; on a tie, the detector's confidence (KOI8-R or
    // windows-1251), else the table's order.
    const confidence = new Map(guesses.map((g) => [decoderFor(g.name.toLowerCase())?.encoding, g.confidence]));
    const ordered = [...language.charsets].sort((a, b) => (confidence.get(b) ?? 0) - (confidence.get(a) ?? 0));
    let best: { decoded: DecodedText; score: number } | undefined;
    for (const charset of ordered) {
      const decoded = tryDecode(body, charset);
      const score = decoded ? languageScore(decoded.text, language) : -1;
      if (decoded && score >= 0 && score > (best?.score ?? -1)) best = { decoded, score };
    }
    if (best) return best.decoded;
  }
  const guess = guesses[0]?.name;
  const guessed = guess === undefined ? undefined : decoderFor(guess.toLowerCase())?.encoding;
  // Of another script's single-byte charsets, those chardet names at all: a short Arabic page can come out ISO-8859-1
  // with windows-1256 second
  const others = new Set<string>();
  for (const { name } of guesses) {
    const encoding = decoderFor(name.toLowerCase())?.encoding;
    if (encoding && OTHER_SINGLE_BYTE.has(encoding)) others.add(encoding);
  }
  // chardet tells the Latin and Cyrillic charsets apart badly on a short page (and calls one it cannot place ASCII)
  if (guessed === undefined || SINGLE_BYTE.has(guessed)) return letterReading(body, sample, [...others]);
  // chardet has no model of DOS's IBM866: a Russian page in it comes out as a Greek or Hebrew charset it is unsure of
  if (others.has(guessed) && guesses[0]!.confidence < UNSURE_CONFIDENCE) {
    return letterReading(body, sample, [...others], true);
  }
  return tryDecode(body, guess!) || tryDecode(body, 'windows-1252')!;
}

/** The single-byte charsets of other scripts chardet names (Greek, Hebrew, Arabic), weighed by `scriptScore`. */
const OTHER_SINGLE_BYTE = new Set([
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'windows-1253',
  'windows-1255',
  'windows-1256',
]);
/**
 * chardet's confidence (0-100) below which its guess of one of them is weighed against the Latin and Cyrillic
 * readings: a Greek, Hebrew or Arabic sentence gets 42 or more, a Russian page in IBM866 15-29.
 */
const UNSURE_CONFIDENCE = 40;

/** The single-byte charsets told apart by the letters of their readings, each with its score. */
const SINGLE_BYTE = new Map<string, (text: string) => number>([
  ...LATIN_CHARSETS.map((charset) => [charset, latinScore] as const),
  ...CYRILLIC_CHARSETS.map((charset) => [charset, cyrillicScore] as const),
]);

/**
 * The single-byte charset whose reading of `sample` (its first 4 KiB past ASCII) scores best: the Latin and Cyrillic
 * ones (`latinScore`, `cyrillicScore`) and the `others` chardet named (`scriptScore`). On a tie, the detector's first
 * guess when `othersFirst`, then the most common on the web (windows-1252 first, windows-1251 first of the Cyrillic
 * ones), then the others.
 */
function letterReading(body: Uint8Array, sample: Uint8Array, others: string[], othersFirst = false): DecodedText {
  // Each of 11 or more readings is scored letter by letter: a window from the first byte past ASCII is enough, and
  // bounds the cost.
  const first = sample.findIndex((byte) => byte >= 0x80);
  const start = Math.max(0, first - 256);
  const window = first < 0 ? sample.subarray(0, 0) : sample.subarray(start, start + SCORE_BYTES);
  const scored = others.map((charset) => [charset, scriptScore(charset)] as const);
  const contenders = othersFirst ? [...scored, ...SINGLE_BYTE] : [...SINGLE_BYTE, ...scored];
  let best: { charset: string; score: number } | undefined;
  for (const [charset, score] of contenders) {
    const value = score(tryDecode(window, charset)!.text);
    if (!best || value > best.score) best = { charset, score: value };
  }
  return tryDecode(body, best!.charset)!;
}

const scriptScores = new Map<string, (text: string) => number>();

/**
 * The letter score of a reading in `charset`, its alphabet being every letter the charset holds past ASCII; such a
 * letter in a word of ASCII letters counts against it (`Problème` read as Greek is `Problθme`).
 */
function scriptScore(charset: string): (text: string) => number {
  let score = scriptScores.get(charset);
  if (!score) {
    const upper = Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i);
    const letters = [...tryDecode(upper, charset)!.text].filter((char) => LETTER.test(char));
    const alphabet = [...new Set(letters.map((char) => char.toLowerCase()))].join('');
    score = (text) => letterScore(text, [alphabet], { aloneInWords: true });
    scriptScores.set(charset, score);
  }
  return score;
}

const LETTER = /\p{L}/u;

function utf8(body: Uint8Array): DecodedText {
  // Buffer's native UTF-8 decoder is the fastest path; a BOM was handled before.
  const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return { text: buffer.toString('utf8'), charset: 'utf-8' };
}

const decoders = new Map<string, TextDecoding | null>();

/** A cached decoder for a label, or null when the label is not a WHATWG encoding. */
function decoderFor(label: string): TextDecoding | null {
  let decoder = decoders.get(label);
  if (decoder === undefined) {
    try {
      decoder = textDecoder(label);
    } catch {
      decoder = null;
    }
    if (decoders.size < 256) decoders.set(label, decoder);
  }
  return decoder;
}

/** Decodes with a WHATWG label through TextDecoder, or through iconv-lite for labels outside the standard. */
function tryDecode(body: Uint8Array, rawLabel: string): DecodedText | undefined {
  const label = rawLabel.trim().toLowerCase();
  const decoder = decoderFor(label);
  if (decoder) {
    // The "replacement" encoding (ISO-2022-KR, HZ, ...) is a WHATWG safety stop; a guess does better.
    if (decoder.encoding === 'replacement') return undefined;
    if (decoder.encoding === 'utf-8' && bomEncoding(body) === undefined) return utf8(body);
    return { text: decoder.decode(body), charset: decoder.encoding };
  }
  if (iconv().encodingExists(label)) {
    const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return { text: iconv().decode(buffer, label), charset: label };
  }
  return undefined;
}
