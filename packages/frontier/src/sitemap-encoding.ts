import { Buffer, isUtf8 } from 'node:buffer';

import { textDecoder, type TextDecoding } from '@crawlkit/options/text-decoder';

/** How far into a sitemap its XML declaration is looked for, in bytes. */
const DECLARATION_BYTES = 1024;

/**
 * Decodes a sitemap's bytes: by its byte-order mark, else as UTF-8 when they are UTF-8 (the sitemap protocol's
 * encoding, and what a sitemap that declares Latin-1 over UTF-8 bytes holds), else in the encoding its XML declaration
 * names (`<?xml version="1.0" encoding="Shift_JIS"?>`, a Japanese site's generator), else as UTF-8. Read as UTF-8, the
 * `<loc>`s of a sitemap in Shift_JIS or EUC-KR came out as U+FFFD and a crawl asked for pages that do not exist.
 */
export function decodeSitemap(bytes: Uint8Array): string {
  return sitemapDecoder(bytes).decode(bytes);
}

function sitemapDecoder(bytes: Uint8Array): TextDecoding {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return textDecoder('utf-8');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return textDecoder('utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return textDecoder('utf-16be');
  if (isUtf8(bytes)) return textDecoder('utf-8');
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, DECLARATION_BYTES)).toString(
    'latin1',
  );
  const label = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']\s*([A-Za-z0-9._:-]+)\s*["']/.exec(head)?.[1];
  if (label !== undefined) {
    try {
      return textDecoder(label);
    } catch {
      // A label the Encoding Standard does not know (a typo, `x-klingon`): read as UTF-8, as before.
    }
  }
  return textDecoder('utf-8');
}
