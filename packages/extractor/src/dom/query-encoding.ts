import { createRequire } from 'node:module';

import { lazyRequire } from '@crawlkit/options/lazy-module';
import type Iconv from 'iconv-lite';

const require = createRequire(import.meta.url);
// Loaded by the first link whose query holds a non-ASCII character on a page in a legacy charset.
const iconv = lazyRequire(() => require('iconv-lite') as typeof Iconv);

const NON_ASCII = /[^\p{ASCII}]/u;
const NON_ASCII_RUN = /[^\p{ASCII}]+/gu;
/** Encodings whose URLs' queries are UTF-8 (WHATWG: UTF-16 and `replacement` encode URLs as UTF-8). */
const UTF8_QUERIES = new Set(['utf-8', 'utf-16le', 'utf-16be', 'replacement']);
/** An explicit scheme; only the special ones but `ws:` take the document's encoding (`mailto:`, `data:` are UTF-8). */
const SCHEME = /^([a-z][a-z\d+.-]*):/i;
const ENCODED_SCHEMES = new Set(['http', 'https', 'ftp', 'file']);

/**
 * `href` with the non-ASCII characters of its query percent-encoded in the document's `encoding`, as a browser
 * parses a link of the page (WHATWG URL's "encoding" of a document's URLs): on a windows-1252 page,
 * `?q=Müller` asks for `?q=M%FCller`, where `new URL` alone would ask for `?q=M%C3%BCller`, another query. The path
 * and the fragment are UTF-8 in every charset. A character the encoding lacks becomes `&#N;`, percent-encoded, as in
 * a browser. An encoding this process cannot encode in, and a URL whose scheme is not http(s), ftp or file
 * (`mailto:`, `ws:`: WHATWG encodes theirs in UTF-8), leave `href` as it is. A relative `href` takes the page's scheme.
 */
export function encodeQuery(href: string, encoding: string | undefined): string {
  if (encoding === undefined || UTF8_QUERIES.has(encoding) || !NON_ASCII.test(href)) return href;
  const scheme = SCHEME.exec(href)?.[1];
  if (scheme !== undefined && !ENCODED_SCHEMES.has(scheme.toLowerCase())) return href;
  const hash = href.indexOf('#');
  const query = href.indexOf('?');
  if (query < 0 || (hash >= 0 && hash < query)) return href;
  const end = hash < 0 ? href.length : hash;
  const text = href.slice(query + 1, end);
  if (!NON_ASCII.test(text) || !iconv().encodingExists(encoding)) return href;
  const encoded = text.replace(NON_ASCII_RUN, (run) => encodeRun(run, encoding));
  return `${href.slice(0, query + 1)}${encoded}${href.slice(end)}`;
}

/** A run of non-ASCII characters, each in `encoding` or as its `&#N;`, percent-encoded byte by byte. */
function encodeRun(run: string, encoding: string): string {
  let out = '';
  for (const char of run) {
    const bytes = iconv().encode(char, encoding);
    // iconv-lite writes `?` for a character the encoding lacks
    if (bytes.length === 1 && bytes[0] === 0x3f) {
      out += `%26%23${char.codePointAt(0)}%3B`;
      continue;
    }
    // a double-byte charset's trail byte may be ASCII (Shift_JIS `ソ` is 83 5C): a browser leaves it as it is
    for (const byte of bytes) out += byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase()}`;
  }
  return out;
}
