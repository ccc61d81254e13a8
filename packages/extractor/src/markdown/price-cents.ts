// A price's cents drawn in `<sup>` (BigCommerce's `$19<sup>99</sup>`, Cdiscount's `19€<sup>99</sup>`): kept as
// `<sup>` they read "$1999" once a RAG index strips the tags. Written as decimals instead: `$19.99`, `19.99 €`. One
// home for the rule: the converter and the product reader's visible-price text both ask `centsPlace`. A currency
// sign drawn in `<sup>` before the amount (REI's `<sup>$</sup>9`) is written as the sign: `$9`, `$19.99`. Cents that
// bring their own point (`$1,899<sup>.00</sup>`) keep it: `$1,899.00`.
import type { Capture } from './capture.js';
import type { Container } from './container.js';
import { feedEvents, type HtmlSink } from './drivers.js';
import { planRaw, RawCapture, type RawEvent } from './raw-html.js';

/** ISO 4217 codes (`EUR 19`, `19 USD`): three capitals alone are too often something else. */
const CODES = new Set(Intl.supportedValuesOf('currency'));
/** A whole amount: `19`, `1,299`, `1.299`, `1 299` (no decimals: then a `<sup>` is not its cents). */
const AMOUNT = String.raw`\d{1,3}(?:[,.\u00a0\u202f' ]\d{3})+|\d+`;
/** Emphasis markers the converter may have written around the sign or the amount (`$**159**`). */
const MARKS = '[*_]*';
const SIGN = String.raw`\p{Sc}|(?<![\p{L}\p{N}])[A-Z]{3}`;
const SIGN_FIRST = new RegExp(String.raw`(${SIGN})${MARKS}[ \u00a0]?${MARKS}(${AMOUNT})${MARKS}$`, 'du');
const SIGN_LAST = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])(${AMOUNT})${MARKS}[ \u00a0]?${MARKS}(\p{Sc}|[A-Z]{3}(?!\p{L}))${MARKS}$`,
  'du',
);
/** A price is short: this much of the text before a `<sup>` is enough to look at. */
const TAIL = 48;
/** Two digits, after the point the page wrote for them (`.00`, `,99`) if it wrote one. */
const CENTS = /^\s*([.,]?)(\d{2})\s*$/;
/** A `<sup>` holding a currency sign or code, as the converter wrote it at the end of the inline text. */
const SIGN_SUP = /<sup>(\p{Sc}|[A-Z]{3})<\/sup>$/u;
const DIGIT = /^\d/;

/** Where a `<sup>`'s cents go in the text before it: `back` characters before its end, after `mark`. */
export interface CentsPlace {
  back: number;
  /** `.`, or `,` after an amount that groups its thousands with `.` (`1.299,99 €`). */
  mark: '.' | ',';
}

function isSign(sign: string): boolean {
  return sign.length !== 3 || CODES.has(sign);
}

/** Where cents go when `before` ends with a price (`$19`, `19 €`, `EUR 19`, `**$19**`); undefined otherwise. */
export function centsPlace(before: string): CentsPlace | undefined {
  const tail = before.length > TAIL ? before.slice(-TAIL) : before;
  const first = SIGN_FIRST.exec(tail);
  const match = first && isSign(first[1]!) ? { amount: 2, found: first } : undefined;
  const last = match ? null : SIGN_LAST.exec(tail);
  const found = match ?? (last && isSign(last[2]!) ? { amount: 1, found: last } : undefined);
  if (!found) return undefined;
  const amount = found.found[found.amount]!;
  const end = found.found.indices![found.amount]![1];
  return { back: tail.length - end, mark: /\.\d{3}$/.test(amount) ? ',' : '.' };
}

/** A `<sup>`'s text as cents at `place`: its two digits after its own point, or the place's; undefined if not cents. */
function centsAt(text: string, place: CentsPlace): string | undefined {
  const found = CENTS.exec(text);
  return found ? (found[1] || place.mark) + found[2]! : undefined;
}

/** `before` and a `<sup>` holding `sup` after it, read as text: the cents written in when they are cents. */
export function withCents(before: string, sup: string): string | undefined {
  const place = centsPlace(before);
  const cents = place && centsAt(sup, place);
  if (!place || cents === undefined) return undefined;
  const at = before.length - place.back;
  return `${before.slice(0, at)}${cents}${before.slice(at)}`;
}

/** A recorded `<sup>`'s text when it holds only text (in `<span>`s at most): a footnote link is not cents. */
function plainText(events: readonly RawEvent[]): string | undefined {
  let text = '';
  for (let i = 1; i < events.length - 1; i++) {
    const event = events[i]!;
    if (typeof event === 'string') text += event;
    else if (('open' in event ? event.open : event.close) !== 'span') return undefined;
  }
  return text;
}

/**
 * The converter's side: a `<sup>` right after a price is recorded to its end; two digits are written as cents into
 * the text before it, anything else (a footnote mark, `TM`) is replayed as an ordinary `<sup>`.
 */
export class PriceCents {
  readonly #sink: HtmlSink;
  readonly #capture: (capture: Capture, done: () => void) => boolean;
  #replaying = false;
  /** A `<sup>` holding only a currency sign that just closed: written as the sign if digits follow it directly. */
  #sign: { cur: Container; tail: string; sign: string } | undefined;

  constructor(sink: HtmlSink, capture: (capture: Capture, done: () => void) => boolean) {
    this.#sink = sink;
    this.#capture = capture;
  }

  /** A `<sup>` written as one closed in `cur`: a currency sign in it waits for the text after it. */
  closed(cur: Container): void {
    const tail = cur.inlineTail();
    const found = tail === undefined ? null : SIGN_SUP.exec(tail);
    this.#sign = found && isSign(found[1]!) ? { cur, tail: tail!, sign: found[1]! } : undefined;
  }

  /** Text about to be written in `cur`: digits right after a sign's `<sup>` take the sign out of it (`$9`). */
  text(data: string, cur: Container): void {
    const sign = this.#sign;
    if (sign === undefined) return;
    this.#sign = undefined;
    if (sign.cur === cur && DIGIT.test(data) && cur.inlineTail() === sign.tail) {
      cur.replaceEnd(`<sup>${sign.sign}</sup>`.length, sign.sign);
    }
  }

  /** A `<sup>` opening in `cur`: true when it is recorded, undefined to open it as usual. */
  open(name: string, attribs: Record<string, string>, cur: Container): true | undefined {
    if (this.#replaying) return undefined;
    const before = cur.inlineTail();
    const place = before === undefined ? undefined : centsPlace(before);
    if (!place) return undefined;
    const capture = new RawCapture(name, attribs, false);
    this.#capture(capture, () => {
      const text = plainText(capture.events);
      const cents = text === undefined ? undefined : centsAt(text, place);
      if (cents !== undefined) return cur.insertBeforeEnd(place.back, cents);
      this.#replaying = true;
      feedEvents(this.#sink, capture.events, planRaw(capture.events).end);
      this.#replaying = false;
    });
    return true;
  }
}
