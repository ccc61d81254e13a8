import type { ConvertOptions, DocumentFormat } from './types.js';
import { firstStoredEntry, isZip, readZipDirectory, type ZipEntry } from './zip/directory.js';
import { zipParts } from './zip/parts.js';

/** What a document is recognized from: its bytes (or text), the type it was served or uploaded with, its name. */
export interface DocumentInput {
  bytes: Uint8Array;
  /** The MIME type without parameters, lower case ('' when unknown). */
  contentType: string;
  /** The file's name: a hint for text formats only (CSV, TSV), which have no signature. */
  fileName?: string;
}

const ODF: Record<string, DocumentFormat> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/epub+zip': 'epub',
};

/**
 * Formats recognized to be refused, so that the error says why: Excel 97-2003 workbooks (`xls`), PowerPoint 97-2003
 * presentations (`ppt`), and Office or OpenDocument files saved with a password (`encrypted`).
 */
export type RefusedFormat = 'xls' | 'ppt' | 'encrypted';

/** The types of the formats recognized by their bytes: served with one of them, other bytes are an error. */
export const DOCUMENT_TYPES: Record<string, DocumentFormat | RefusedFormat> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/msword': 'doc',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/rtf': 'rtf',
  'text/rtf': 'rtf',
  ...ODF,
};

/**
 * The formats a file name's extension names, for a file whose bytes have no known signature and whose type says
 * nothing: such a file is a damaged or truncated document, refused as one (`SCRAPE_DOCUMENT_PARSE_ERROR` naming its
 * format), not as an unknown binary.
 */
const NAMED_FORMATS: Record<string, DocumentFormat | RefusedFormat> = {
  docx: 'docx',
  xlsx: 'xlsx',
  pptx: 'pptx',
  odt: 'odt',
  ods: 'ods',
  odp: 'odp',
  epub: 'epub',
  rtf: 'rtf',
  doc: 'doc',
  xls: 'xls',
  ppt: 'ppt',
};
const GENERIC_TYPES = new Set(['', 'application/octet-stream']);

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values', 'text/x-csv']);
const TSV_TYPES = new Set(['text/tab-separated-values', 'text/tsv']);
const IMAGE_SIGNATURES: readonly (readonly [readonly number[], string])[] = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x49, 0x49, 0x2a, 0x00], 'image/tiff'], // little-endian
  [[0x4d, 0x4d, 0x00, 0x2a], 'image/tiff'], // big-endian
];
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

/** The MIME type of an image read by OCR (PNG, JPEG, TIFF, WebP), by its signature; `undefined` for other bytes. */
export function imageType(bytes: Uint8Array): string | undefined {
  const found = IMAGE_SIGNATURES.find(([signature]) => startsWith(bytes, signature));
  if (found) return found[1];
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return undefined;
}

export function isImage(bytes: Uint8Array): boolean {
  return imageType(bytes) !== undefined;
}

const MANIFEST = 'META-INF/manifest.xml';
/** A manifest is a few KiB; one declaring more is not read here (the zip guard bounds it when converted). */
const MAX_MANIFEST = 1024 * 1024;

/**
 * Whether an OpenDocument was saved with a password: its manifest gives the encryption of its parts
 * (`<manifest:encryption-data>`), whose bytes are then no XML anyone reads without the password.
 */
function odfEncrypted(bytes: Uint8Array, entries: readonly ZipEntry[]): boolean {
  const manifest = entries.find((entry) => entry.name === MANIFEST);
  if (manifest === undefined || manifest.declaredSize > MAX_MANIFEST) return false;
  try {
    return zipParts(bytes, (name) => name === MANIFEST)[MANIFEST]?.includes(':encryption-data') ?? false;
  } catch {
    return false; // a damaged archive: the conversion says so
  }
}

function zipFormat(bytes: Uint8Array): DocumentFormat | 'encrypted' | undefined {
  const entries = readZipDirectory(bytes, 100_000) ?? [];
  const first = firstStoredEntry(bytes);
  const odf = first?.name === 'mimetype' ? ODF[first.text] : undefined;
  if (odf !== undefined) return odf !== 'epub' && odfEncrypted(bytes, entries) ? 'encrypted' : odf;
  const names = new Set(entries.map((e) => e.name));
  if (names.has('word/document.xml')) return 'docx';
  if (names.has('xl/workbook.xml')) return 'xlsx';
  if (names.has('ppt/presentation.xml')) return 'pptx';
  if (names.has('META-INF/container.xml')) return 'epub';
  return undefined;
}

/** Whether a Compound File (legacy Office) holds a stream of this name (names are UTF-16LE in its directory). */
function hasStream(bytes: Uint8Array, name: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(name, 'utf16le'));
}

/** Whether the first 4 KiB look like text (no NUL byte). */
function looksLikeText(bytes: Uint8Array): boolean {
  return !bytes.subarray(0, 4096).includes(0);
}

/**
 * The document format of a file, from its signature first (zip parts, Compound File streams, `{\rtf`, image
 * headers), then, for text formats that have none, from its served type or its name together with a check that it
 * is text. `xls`, `ppt` and `encrypted` are recognized to be refused with a reason (`RefusedFormat`). `undefined`:
 * not a document this package converts.
 */
export function detectFormat(input: DocumentInput): DocumentFormat | RefusedFormat | undefined {
  const { bytes, contentType } = input;
  if (isZip(bytes)) return zipFormat(bytes);
  if (startsWith(bytes, CFB)) {
    // A password-protected .docx, .xlsx or .pptx: its zip is encrypted inside a Compound File (MS-OFFCRYPTO).
    if (hasStream(bytes, 'EncryptedPackage')) return 'encrypted';
    if (hasStream(bytes, 'WordDocument')) return 'doc';
    if (hasStream(bytes, 'Workbook') || hasStream(bytes, 'Book')) return 'xls';
    if (hasStream(bytes, 'PowerPoint Document')) return 'ppt';
    return undefined;
  }
  if (startsWith(bytes, [0x7b, 0x5c, 0x72, 0x74, 0x66])) return 'rtf'; // {\rtf
  if (isImage(bytes)) return 'image';
  if (!looksLikeText(bytes)) return undefined;
  const extension = input.fileName?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  const unknownType = contentType === '' || contentType === 'application/octet-stream' || contentType === 'text/plain';
  if (CSV_TYPES.has(contentType) || (unknownType && extension === 'csv')) return 'csv';
  if (TSV_TYPES.has(contentType) || (unknownType && extension === 'tsv')) return 'tsv';
  return undefined;
}

/**
 * The format a file is said to be when its bytes are none: its served type's (`DOCUMENT_TYPES`), else, under no type
 * or `application/octet-stream`, its name's (`report.docx`). Such a file is refused as a damaged document of that
 * format, not as an unknown binary.
 */
export function declaredFormat(input: DocumentInput): DocumentFormat | RefusedFormat | undefined {
  const typed = DOCUMENT_TYPES[input.contentType];
  if (typed !== undefined || !GENERIC_TYPES.has(input.contentType)) return typed;
  return NAMED_FORMATS[input.fileName?.toLowerCase().match(/\.([a-z]+)$/)?.[1] ?? ''];
}

/**
 * The format this package would convert the input as, given the options (`images`: whether images are read by
 * OCR), or `undefined` when it is none of its formats. A type or signature of a refused format (`.xls`, `.ppt`, a file
 * saved with a password) answers it (`xls`, `ppt`, `encrypted`), so that the caller can say why.
 */
export function documentFormat(input: DocumentInput, options: Pick<ConvertOptions, 'images'> = {}) {
  const format = detectFormat(input);
  if (format === 'image' && !options.images) return undefined;
  return format ?? declaredFormat(input);
}
