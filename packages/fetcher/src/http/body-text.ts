import { decodeText } from './charset.js';
import { isTextualType, sniffBinary } from './content-type.js';
import type { FetchResult } from './types.js';

/**
 * Fills in how `result.body` reads as text, by one rule for every engine that hands on bytes: binary bytes under a
 * textual type get `sniffedContentType`; textual bytes get `text` (decoded), or `undecodedText` when the caller
 * decodes them itself (`deferDecoding`).
 */
export function describeBody(result: FetchResult, declaredCharset: string | undefined, deferDecoding: boolean): void {
  if (!isTextualType(result.contentType)) return;
  const sniffed = sniffBinary(result.body, declaredCharset);
  const contentLanguage = result.headers['content-language'];
  if (sniffed) {
    result.sniffedContentType = sniffed;
  } else if (deferDecoding) {
    result.undecodedText = {
      ...(declaredCharset !== undefined ? { declaredCharset } : {}),
      ...(contentLanguage !== undefined ? { contentLanguage } : {}),
    };
  } else {
    const text = decodeText(result.body, result.contentType, declaredCharset, contentLanguage);
    result.text = text.text;
    result.charset = text.charset;
  }
}
