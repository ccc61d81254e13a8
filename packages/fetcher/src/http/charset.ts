import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

import chardet from 'chardet';
import { ResultType, Sniffer } from 'encoding-sniffer/sniffer';
import iconv from 'iconv-lite';

import { isHtmlType, isXmlType } from './content-type.js';

/** How far into an HTML or XML document `<meta charset>` and the XML declaration are looked for, in bytes. */
const PRESCAN_BYTES = 8192;
/** Bytes given to the statistical detector when nothing declares the encoding. */
const DETECT_BYTES = 64 * 1024;

export interface DecodedText {
  text: string;
  /** WHATWG name of the encoding used (`utf-8`, `windows-1252`, `shift_jis`, ...). */
  charset: string;
}

/**
 * Decodes a textual body. The encoding is, in order: a byte-order mark, the `content-type` charset, for HTML and
 * XML a `<meta charset>` / `http-equiv` / XML declaration in the first 8 KiB (WHATWG prescan), then UTF-8 when the
 * bytes are valid UTF-8, then a statistical guess (chardet), then windows-1252.
 */
export function decodeText(body: Uint8Array, type: string, declaredCharset?: string): DecodedText {
  const markup = isHtmlType(type) || isXmlType(type);
  const sniffer = new Sniffer({
    maxBytes: markup ? PRESCAN_BYTES : 4,
    ...(declaredCharset ? { transportLayerEncodingLabel: declaredCharset } : {}),
  });
  sniffer.write(body.subarray(0, markup ? PRESCAN_BYTES : 4));
  if (sniffer.resultType !== ResultType.DEFAULT) {
    const decoded = tryDecode(body, sniffer.encoding);
    if (decoded) return decoded;
  }
  return decodeUndeclared(body);
}

function decodeUndeclared(body: Uint8Array): DecodedText {
  if (isUtf8(body)) return { text: new TextDecoder('utf-8').decode(body), charset: 'utf-8' };
  const guess = chardet.detect(body.subarray(0, DETECT_BYTES));
  return (guess && tryDecode(body, guess)) || (tryDecode(body, 'windows-1252') as DecodedText);
}

/** Decodes with a WHATWG label through TextDecoder, or through iconv-lite for labels outside the standard. */
function tryDecode(body: Uint8Array, label: string): DecodedText | undefined {
  let decoder: TextDecoder | undefined;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = undefined;
  }
  if (decoder) {
    // The "replacement" encoding (ISO-2022-KR, HZ, ...) is a WHATWG safety stop; a guess does better.
    if (decoder.encoding === 'replacement') return undefined;
    return { text: decoder.decode(body), charset: decoder.encoding };
  }
  if (iconv.encodingExists(label)) {
    return {
      text: iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), label),
      charset: label.toLowerCase(),
    };
  }
  return undefined;
}
