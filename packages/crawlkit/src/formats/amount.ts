/**
 * A number as a page writes it in its structured data: a JSON-LD number, or text in the page's locale (a microdata
 * price read from the visible text). Shared by the `product` and `jobPosting` readers.
 */
import { text } from './json-ld-values.js';

/**
 * A price's number. schema.org's `price` takes `.` for the decimal point, but a microdata price read from the visible
 * text is written as the shop's locale writes it: with both marks the last one is the decimal point (`1.299,00 €`,
 * `$1,299.00`); a `,` repeated or followed by three digits groups thousands (`$1,299`), another one is the decimal
 * point (`19,99 €`); a `.` repeated groups thousands, a single one is the decimal point (schema.org's reading).
 */
export function amountOf(value: unknown): number | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const cleaned = raw.replace(/[^\d.,-]/g, '');
  if (cleaned === '') return undefined;
  const decimal = decimalMark(cleaned);
  const [whole = '', fraction] = decimal === undefined ? [cleaned] : splitLast(cleaned, decimal);
  const amount = Number(`${whole.replace(/[.,]/g, '')}${fraction === undefined ? '' : `.${fraction}`}`);
  return Number.isFinite(amount) ? amount : undefined;
}

/** The mark of `amountOf`'s number that is its decimal point, or undefined when every mark groups thousands. */
function decimalMark(number: string): '.' | ',' | undefined {
  if (number.includes('.') && number.includes(','))
    return number.lastIndexOf('.') > number.lastIndexOf(',') ? '.' : ',';
  if (number.includes(',')) return /,.*,|,\d{3}$/.test(number) ? undefined : ',';
  return /\..*\./.test(number) ? undefined : '.';
}

function splitLast(value: string, mark: string): [string, string | undefined] {
  const at = value.lastIndexOf(mark);
  return at < 0 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}
