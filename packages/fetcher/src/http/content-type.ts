/** `type/subtype` lower-cased and the `charset` parameter of a `content-type` header. */
export interface ParsedContentType {
  type: string;
  charset?: string;
}

export function parseContentType(header: string | undefined): ParsedContentType {
  if (!header) return { type: '' };
  const semicolon = header.indexOf(';');
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  const result: ParsedContentType = { type: type.includes('/') ? type : '' };
  if (semicolon !== -1) {
    const match = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i.exec(header.slice(semicolon));
    if (match?.[2]) result.charset = match[2].toLowerCase();
  }
  return result;
}

const TEXTUAL_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/xhtml+xml',
  'application/x-www-form-urlencoded',
  'application/x-ndjson',
  'application/graphql',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/csv',
  'application/sql',
]);

/** Content whose body is text to decode (an absent type counts: it is sniffed). */
export function isTextualType(type: string): boolean {
  return (
    type === '' ||
    type.startsWith('text/') ||
    TEXTUAL_APPLICATION_TYPES.has(type) ||
    type.endsWith('+xml') ||
    type.endsWith('+json')
  );
}

export function isHtmlType(type: string): boolean {
  return type === 'text/html' || type === 'application/xhtml+xml' || type === '';
}

export function isXmlType(type: string): boolean {
  return type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
}

export function isJsonType(type: string): boolean {
  return type === 'application/json' || type === 'text/json' || type.endsWith('+json');
}

/** Leading bytes of common binary formats (WHATWG MIME Sniffing §6, plus a few archive and font types). */
const SIGNATURES: readonly [string, readonly number[]][] = [
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]], // GIF8
  ['image/webp', [0x52, 0x49, 0x46, 0x46]], // RIFF (also WAV, AVI)
  ['image/x-icon', [0x00, 0x00, 0x01, 0x00]],
  ['image/bmp', [0x42, 0x4d]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/gzip', [0x1f, 0x8b, 0x08]],
  ['application/x-rar-compressed', [0x52, 0x61, 0x72, 0x20, 0x1a, 0x07]],
  ['application/x-7z-compressed', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['application/zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['application/wasm', [0x00, 0x61, 0x73, 0x6d]],
  ['font/woff', [0x77, 0x4f, 0x46, 0x46]],
  ['font/woff2', [0x77, 0x4f, 0x46, 0x32]],
  ['application/ogg', [0x4f, 0x67, 0x67, 0x53]],
  ['audio/mpeg', [0x49, 0x44, 0x33]], // ID3
  ['application/x-executable', [0x7f, 0x45, 0x4c, 0x46]], // ELF
];

const SNIFF_BYTES = 1024;

/** Signatures by first byte, so that a text body costs one lookup instead of a pass over every signature. */
const SIGNATURES_BY_FIRST_BYTE = new Map<number, [string, readonly number[]][]>();
for (const entry of SIGNATURES) {
  const first = entry[1][0]!;
  const list = SIGNATURES_BY_FIRST_BYTE.get(first) ?? [];
  list.push(entry);
  SIGNATURES_BY_FIRST_BYTE.set(first, list);
}

/** WHATWG "binary data bytes": control characters that never occur in text (ESC, used by ISO-2022, is allowed). */
const BINARY_DATA_BYTE = new Uint8Array(256);
for (let byte = 0; byte < 0x20; byte++) {
  BINARY_DATA_BYTE[byte] = byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || byte >= 0x1c ? 1 : 0;
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  if (bytes.length < signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[i] !== signature[i]) return false;
  return true;
}

/**
 * The MIME type of `bytes` when they are binary, whatever was declared: a known signature, or
 * `application/octet-stream` when the first KiB holds binary data bytes and does not open like markup. `undefined`
 * for text. UTF-16 text (with a BOM, or declared by `charset`) is text.
 */
export function sniffBinary(bytes: Uint8Array, declaredCharset?: string): string | undefined {
  if (bytes.length === 0) return undefined;
  if (hasUtf16Or32Bom(bytes) || (declaredCharset && /^utf-?(16|32)/.test(declaredCharset))) return undefined;
  const candidates = SIGNATURES_BY_FIRST_BYTE.get(bytes[0]!);
  if (candidates) for (const [type, signature] of candidates) if (startsWith(bytes, signature)) return type;
  // A page that opens with a tag is text even with stray control bytes in it (text pasted from word processors
  // carries U+0019 for an apostrophe, U+0013 for a dash): browsers render it.
  if (opensWithTag(bytes)) return undefined;
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (BINARY_DATA_BYTE[bytes[i]!] === 1) return 'application/octet-stream';
  return undefined;
}

/** Whether the first byte past a UTF-8 BOM and whitespace is `<`. */
function opensWithTag(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x3c;
}

function hasUtf16Or32Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}
