import { QuoteType, type TokenizerCallbacks } from 'htmlparser2';

// A plain tag read in one step: `<name attr="value" attr='value' attr=value attr>` (or `/>`) and `</name>`, with the
// callbacks and the state htmlparser2's Tokenizer reaches by stepping its states one character at a time (a call of
// its parse loop and a state function each). Anything less plain (an entity in a value, attributes without a space
// between, a special element such as `<script>`, a tag that runs past the written slice) is left to those states:
// nothing has been reported by then, so they start it from scratch.

/** The parts of htmlparser2's Tokenizer these reads use (private in its types, plain properties at runtime). */
export interface TagTokenizerState {
  buffer: string;
  index: number;
  offset: number;
  sectionStart: number;
  state: number;
  isSpecial: boolean;
  sequenceIndex: number;
  currentSequence: Uint8Array;
  cbs: TokenizerCallbacks;
  enterTagBody(): void;
  /** The next `&` of the buffer at `offset` searched from `ampFrom` (`-1`: none). */
  ampAt: number;
  ampFrom: number;
  ampOffset: number;
}

/**
 * Index in the buffer of the first `&` at or after `from`, or -1. It is remembered until passed: a page with few
 * entities is not searched to its end at every text node and attribute value.
 */
export function nextAmp(t: TagTokenizerState, from: number): number {
  if (t.ampOffset !== t.offset || from < t.ampFrom || (t.ampAt !== -1 && t.ampAt < from)) {
    t.ampOffset = t.offset;
    t.ampFrom = from;
    t.ampAt = t.buffer.indexOf('&', from);
  }
  return t.ampAt;
}

/** htmlparser2's `State.Text` (a const enum there): where a tag's `>` leads outside special elements. */
const STATE_TEXT = 1;

const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;
const DQ = 0x22;
const SQ = 0x27;
const AMP = 0x26;

/** htmlparser2's whitespace: space, `\n`, `\t`, `\f`, `\r`. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

export function isAsciiAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** Elements whose start tag makes the Tokenizer read raw text, RCDATA or plain text after it. */
const SPECIAL = new Set(['iframe', 'noembed', 'noframes', 'plaintext', 'script', 'style', 'title', 'textarea', 'xmp']);
/** Their first letters: the Tokenizer's special-tag detection starts on these. */
const SPECIAL_FIRST = new Set([...SPECIAL].map((name) => name.charCodeAt(0)));
const EMPTY_SEQUENCE = new Uint8Array(0);

const MAX_ATTRIBUTES = 64;
/** Per attribute: name start, name end, quote type, value start, value end (buffer indices). */
const FIELDS = 5;
const found = new Int32Array(MAX_ATTRIBUTES * FIELDS);

/**
 * Reads the plain start tag whose name starts at the current character (`<` is the one before): reports it and
 * leaves the Tokenizer after its `>`, as its states would. False, with nothing reported or changed, when the tag is
 * not plain.
 */
export function readStartTag(t: TagTokenizerState): boolean {
  const buffer = t.buffer;
  const end = buffer.length;
  const nameStart = t.index - t.offset;
  let i = nameStart + 1;
  let c = 0;
  while (i < end && !isSpace((c = buffer.charCodeAt(i))) && c !== SLASH && c !== GT) i++;
  if (i >= end) return false;
  const nameEnd = i;
  const firstLetter = buffer.charCodeAt(nameStart) | 0x20;
  const maybeSpecial = SPECIAL_FIRST.has(firstLetter) && !t.cbs.isInForeignContext?.();
  if (maybeSpecial && SPECIAL.has(buffer.slice(nameStart, nameEnd).toLowerCase())) return false;

  let count = 0;
  let selfClosing = false;
  for (;;) {
    const spaceFrom = i;
    while (i < end && isSpace((c = buffer.charCodeAt(i)))) i++;
    if (i >= end) return false;
    if (c === GT) break;
    if (c === SLASH) {
      i++;
      while (i < end && isSpace((c = buffer.charCodeAt(i)))) i++;
      if (i >= end || c !== GT) return false;
      selfClosing = true;
      break;
    }
    // an attribute: after a space, not starting with `=`
    if (i === spaceFrom || c === EQ || count === MAX_ATTRIBUTES) return false;
    const at = count++ * FIELDS;
    found[at] = i;
    while (i < end && !isSpace((c = buffer.charCodeAt(i))) && c !== SLASH && c !== GT && c !== EQ) i++;
    found[at + 1] = i;
    found[at + 2] = QuoteType.NoValue;
    let j = i;
    while (j < end && isSpace((c = buffer.charCodeAt(j)))) j++;
    if (j >= end) return false;
    if (c !== EQ) continue;
    j++;
    while (j < end && isSpace((c = buffer.charCodeAt(j)))) j++;
    if (j >= end) return false;
    if (c === DQ || c === SQ) {
      const close = buffer.indexOf(c === DQ ? '"' : "'", j + 1);
      if (close < 0) return false;
      const amp = nextAmp(t, j + 1);
      if (amp >= 0 && amp < close) return false;
      found[at + 2] = c === DQ ? QuoteType.Double : QuoteType.Single;
      found[at + 3] = j + 1;
      found[at + 4] = close;
      i = close + 1;
    } else {
      // unquoted: up to a space or `>`; one that starts with `>` (an empty value) is left to the states
      if (c === GT) return false;
      const from = j;
      while (j < end && !isSpace((c = buffer.charCodeAt(j))) && c !== GT) {
        if (c === AMP) return false;
        j++;
      }
      if (j >= end) return false;
      found[at + 2] = QuoteType.Unquoted;
      found[at + 3] = from;
      found[at + 4] = j;
      i = j;
    }
  }

  // the tag is plain: report it as the states would
  const offset = t.offset;
  const cbs = t.cbs;
  cbs.onopentagname(nameStart + offset, nameEnd + offset);
  for (let k = 0; k < count; k++) {
    const at = k * FIELDS;
    const nameTo = found[at + 1]! + offset;
    cbs.onattribname(found[at]! + offset, nameTo);
    const quote = found[at + 2]! as QuoteType;
    if (quote === QuoteType.NoValue) {
      cbs.onattribend(quote, nameTo);
      continue;
    }
    const valueEnd = found[at + 4]! + offset;
    cbs.onattribdata(found[at + 3]! + offset, valueEnd);
    cbs.onattribend(quote, quote === QuoteType.Unquoted ? valueEnd : valueEnd + 1);
  }
  if (maybeSpecial) {
    // the special-tag detection the states started on this first letter, abandoned
    t.isSpecial = false;
    t.currentSequence = EMPTY_SEQUENCE;
    t.sequenceIndex = 0;
  }
  t.index = i + offset;
  if (selfClosing) cbs.onselfclosingtag(t.index);
  else cbs.onopentagend(t.index);
  t.sectionStart = t.index + 1;
  t.state = STATE_TEXT;
  t.enterTagBody();
  return true;
}

/**
 * Reads the end tag `</name>` whose name starts at the current character, when `>` follows the name: reports it and
 * leaves the Tokenizer after the `>`. False, with nothing reported or changed, otherwise.
 */
export function readEndTag(t: TagTokenizerState): boolean {
  const buffer = t.buffer;
  const nameStart = t.index - t.offset;
  let i = nameStart + 1;
  let c = 0;
  while (i < buffer.length && !isSpace((c = buffer.charCodeAt(i))) && c !== SLASH && c !== GT) i++;
  if (i >= buffer.length || c !== GT) return false;
  t.cbs.onclosetag(nameStart + t.offset, i + t.offset);
  t.index = i + t.offset;
  t.state = STATE_TEXT;
  t.sectionStart = t.index + 1;
  return true;
}
