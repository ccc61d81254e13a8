/**
 * A full stop before a space that does not end a sentence, by the shape of what is around it (no list of
 * abbreviations, which every language has its own of): the end of a dotted abbreviation in lower case (`e.g.`,
 * `i.e.`, `a.m.`, `d.h.`), an initial after a name or another initial (`George W. Bush`, `Harvard T.H. Chan`,
 * `A. O. Smith`), a capitalised word without a vowel (`Dr.`, `Mrs.`, `St.`, `Ltd.`), or any before a word in lower
 * case (`etc. and`, `approx. the`, `U.S. households`, `ca. zehn`). `vitamin D. And`, `in the U.S. See` and units
 * (`60 fps. It`) still end theirs.
 */
const INNER_STOP = [
  String.raw`(?<=(?<![\p{L}\p{N}])\p{L}\.\p{Ll})\.(?=\s)`,
  String.raw`(?<=(?:\p{Lu}\p{Ll}+|\p{Lu}\.) (?:\p{Lu}\.){0,3}\p{Lu})\.(?=\s)`,
  String.raw`(?<=(?<![\p{L}\p{N}])[B-DF-HJ-NP-TV-XZ][b-df-hj-np-tv-xz]+)\.(?=\s)`,
  String.raw`\.(?=[ \t]+\p{Ll})`,
].join('|');
/**
 * A sentence: up to `.`, `!`, `?` or the Arabic `؟` before whitespace or the end (one inside a number or a name,
 * `2.5`, `acme.test`, does not end it, nor an `INNER_STOP`), or up to a full stop that ends a sentence wherever it
 * is: CJK `。！？`, the Devanagari danda `। ॥`, the Urdu `۔`, the Ethiopic `።`, the Armenian `։`, the Burmese `။` and
 * the Khmer `។ ៕`. `END` marks where a line of Thai, Lao, Khmer or Burmese ends without one (below).
 */
const SENTENCE = new RegExp(
  String.raw`(?:[^.!?؟。！？।॥۔።։။។៕\n\uE000]|[.!?؟](?!\s|$)|${INNER_STOP})+(?:[.!?؟]+(?=\s|$)|[。！？।॥۔።։။។៕]+|\uE000)`,
  'gu',
);
/** A private-use character: the end of a sentence that has no full stop of its own. */
const END = '\uE000';
/** Thai, Lao, Myanmar and Khmer: spaces separate phrases, not words. */
const PHRASED = '\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF';
/** A line of phrased script with no full stop at its end: the line ends the sentence (Thai and Lao have none). */
const PHRASED_LINE = new RegExp(`^(.*[${PHRASED}].*?)[ \\t]*$`, 'gm');
const ENDS_SENTENCE = /(?:[.!?؟]|[。！？।॥۔።։။។៕])$/;
/** A space between two runs of phrased script: where a sentence of it may be cut. */
const PHRASE_BREAK = new RegExp(`(?<=[${PHRASED}])[ \\t]+(?=[${PHRASED}])`, 'g');
/** Scripts written without spaces between words: sentence length is judged in characters. */
const DENSE_SCRIPT = new RegExp(`[\\u3040-\\u30ff\\u3400-\\u9fff\\uac00-\\ud7af${PHRASED}]`);

/**
 * The inline syntax of the markdown converter's output, in one pass so that one never reads inside another: a code
 * span (its content is text: `snake_case`, `a*b`), a backslash escape (`5\\*3` is `5*3`), an HTML tag (`<br>`, `<sup>`;
 * not `2 < 3 > 1`), and a run of emphasis or strikethrough delimiters. The converter escapes every literal `*`, `_`
 * and `~` but one between spaces, so an unescaped run elsewhere is a delimiter.
 */
const INLINE_SYNTAX =
  /(`+)([^`](?:[\s\S]*?[^`])?)\1(?!`)|\\([!-/:-@[-`{-~])|<\/?[A-Za-z][^<>]*>|(?<=^|\s)([*_~]+)(?=\s|$)|[*_~]+/gmu;

/**
 * What `INLINE_SYNTAX` leaves of a match: a code span's content, the escaped character, a `*`, `_` or `~` between
 * spaces (`5 * 3`: text); nothing of a delimiter run, a space for a tag.
 */
function plainInline(match: string, _ticks?: string, code?: string, escaped?: string, spaced?: string): string {
  if (code !== undefined)
    return code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code;
  if (escaped !== undefined) return escaped;
  if (spaced !== undefined) return spaced;
  return match.startsWith('<') ? ' ' : '';
}

function isSubstantial(sentence: string): boolean {
  return DENSE_SCRIPT.test(sentence) ? sentence.length >= 12 : sentence.split(' ').length >= 6;
}

/** `sentence` cut at its last phrase break within `room` characters, or `undefined` when it has none there. */
function leadingPhrases(sentence: string, room: number): string | undefined {
  let cut: number | undefined;
  for (const phraseBreak of sentence.matchAll(PHRASE_BREAK)) {
    if (phraseBreak.index > room) break;
    cut = phraseBreak.index;
  }
  return cut === undefined ? undefined : sentence.slice(0, cut);
}

/**
 * A summary without a model: the page's first substantial sentences (lead-based, a strong baseline for news and
 * documentation), capped near `maxChars` characters. Headings, code, images, tables and short fragments such as
 * bylines are left out; link text is kept. A paragraph of Thai or Lao, which have no full stop, is one sentence, cut
 * at the cap between two phrases (the spaces of those scripts), never inside one; so is an over-long Khmer or Burmese
 * sentence.
 */
export function summarizeExtractive(markdown: string, maxChars = 600): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^\s*#{1,6}\s.*$/gm, '')
    .replace(/^\s*\|.*$/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*([-*+]|\d+\.)\s+/gm, '')
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, '')
    .replace(INLINE_SYNTAX, plainInline)
    .replace(/\uE000/g, ' ');
  const marked = text.replace(PHRASED_LINE, (_line, content: string) =>
    ENDS_SENTENCE.test(content) ? content : content + END,
  );
  const sentences: string[] = [];
  let length = 0;
  for (const match of marked.matchAll(SENTENCE)) {
    const sentence = match[0].replace(END, '').replace(/\s+/g, ' ').trim();
    if (!isSubstantial(sentence)) continue;
    if (length + sentence.length > maxChars) {
      // A first sentence, or a paragraph with no full stop (its phrases are its sentences), ends at the last phrase
      // break that fits; after other sentences, a full sentence that does not fit is left out.
      const cuttable = sentences.length === 0 || match[0].endsWith(END);
      const lead = cuttable ? leadingPhrases(sentence, maxChars - length) : undefined;
      if (lead !== undefined && isSubstantial(lead)) sentences.push(lead);
      else if (sentences.length === 0) sentences.push(sentence);
      break;
    }
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  if (sentences.length > 0) return sentences.join(' ');
  // No prose: the start of the text, headings included (a page of only headings still gets its words).
  const fallback = text.trim() ? text : markdown.replace(/^\s*#{1,6}\s+/gm, '').replace(/[*_`|>#]/g, ' ');
  return fallback.replace(/\s+/g, ' ').trim().slice(0, maxChars);
}
