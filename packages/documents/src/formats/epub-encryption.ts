/**
 * An EPUB's `META-INF/encryption.xml` (OCF): the parts whose bytes are not as written. Font obfuscation
 * (`http://www.idpf.org/2008/embedding`, Adobe's `http://ns.adobe.com/pdf/enc#RC`) lists only font files, whose
 * bytes no converter reads: the book's text is intact. A content document (XHTML) listed there is enciphered (DRM,
 * Adobe ADEPT or another): its bytes are no XML, and the book cannot be read without the key.
 */
import type { PartTexts } from '../zip/parts.js';

/** The file that lists an EPUB's encrypted parts, read in the zip guard's pass with the package. */
export const ENCRYPTION = 'META-INF/encryption.xml';

const CONTENT_EXTENSION = /\.(?:xhtml|html|htm)$/i;

/** A URI of the container as a part's name: no leading `/` or `./`, percent-escapes decoded. */
function partName(uri: string): string {
  const name = uri.replace(/^\.?\//, '');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** The parts the package document lists as XHTML, by their name in the archive (`href`s are relative to it). */
function xhtmlParts(opfPath: string | undefined, opf: string | undefined): Set<string> {
  const base = opfPath?.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const names = new Set<string>();
  for (const [item] of (opf ?? '').matchAll(/<(?:\w+:)?item\b[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(item)?.[1];
    if (href !== undefined && /media-type="application\/xhtml\+xml"/.test(item)) names.add(partName(base + href));
  }
  return names;
}

/**
 * The content documents `encryption.xml` lists (enciphered by DRM), by name; none for a book without the file or
 * with its fonts alone obfuscated. A content document is one the package lists as XHTML, or named `.xhtml`/`.html`.
 */
export function encryptedContent(parts: PartTexts, opfPath: string | undefined): string[] {
  const listing = parts[ENCRYPTION];
  if (listing === undefined) return [];
  const xhtml = xhtmlParts(opfPath, opfPath === undefined ? undefined : parts[opfPath]);
  const listed = [...listing.matchAll(/<(?:\w+:)?CipherReference\b[^>]*\bURI="([^"]+)"/g)].map((m) => partName(m[1]!));
  return [...new Set(listed)].filter((name) => xhtml.has(name) || CONTENT_EXTENSION.test(name));
}
