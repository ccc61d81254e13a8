/**
 * `TextDecoder` as the Encoding Standard has it on every Node crawlkit runs on, for the decoders of web pages
 * (`@crawlkit/fetcher`) and of documents' metadata (`@crawlkit/documents`).
 */

/** What the decoders use of a `TextDecoder`. */
export interface TextDecoding {
  /** The encoding's name (`windows-1252` for `iso-8859-1`, `latin1` and `us-ascii` too). */
  readonly encoding: string;
  decode(bytes: Uint8Array): string;
}

/** What windows-1252 maps bytes 0x80-0x9F to; the five it leaves undefined stay C1 controls, as the standard says. */
const WINDOWS_1252_C1 = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ';

const C1 = /[\x80-\x9F]/g;

/**
 * A decoder for `label` (throws a `RangeError` for a label that is not the standard's, as `TextDecoder` does).
 *
 * Node 22.16 decodes windows-1252 as ISO-8859-1, through a fast path for Latin-1 text: bytes 0x80-0x9F came out as
 * invisible C1 controls, so the `’`, `“`, `”`, `–`, `—` and `€` of a page in windows-1252 (or labelled ISO-8859-1 or
 * latin1, as many are) were lost; Node 24 decodes them. Where Node's decoder does that (`native`, a parameter for
 * tests), those bytes are mapped to windows-1252's characters after it: every other byte is the same in both.
 */
export function textDecoder(
  label: string,
  native = (name: string): TextDecoding => new TextDecoder(name),
): TextDecoding {
  const decoder = native(label);
  if (decoder.encoding !== 'windows-1252' || decoder.decode(Uint8Array.of(0x80)) === '€') return decoder;
  return {
    encoding: decoder.encoding,
    decode: (bytes) => decoder.decode(bytes).replace(C1, (char) => WINDOWS_1252_C1[char.charCodeAt(0) - 0x80]!),
  };
}
