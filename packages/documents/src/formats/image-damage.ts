/**
 * An image's structure checked before OCR: Tesseract's decoders (libjpeg, libwebp, libtiff and libpng inside
 * Leptonica, in WebAssembly) print their complaint about a damaged file on the process's stderr, where crawlkit cannot
 * catch it, and a refused image stops the recognizer. A cut download, the usual damage, is found here from the file's
 * own framing, without decoding a pixel: a PNG's chunks (`png-check.ts`), a JPEG's end marker, a WebP's RIFF size, a
 * TIFF's directory and strips.
 */
import { isPng, pngDamage } from './png-check.js';

const CUT = 'a cut download?';

/** Why the image is damaged, naming its type (`the JPEG is damaged (…)`), or undefined for one that looks whole. */
export function imageDamage(bytes: Uint8Array): string | undefined {
  const [type, why] = isPng(bytes)
    ? ['PNG', pngDamage(bytes)]
    : isJpeg(bytes)
      ? ['JPEG', jpegDamage(bytes)]
      : isWebp(bytes)
        ? ['WebP', webpDamage(bytes)]
        : isTiff(bytes)
          ? ['TIFF', tiffDamage(bytes)]
          : [undefined, undefined];
  return why === undefined ? undefined : `the ${type} is damaged (${why})`;
}

function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/**
 * A JPEG's segments up to its first scan, then its end-of-image marker after it: inside the scan's data a 0xFF byte
 * is always followed by 0x00 or a restart marker, so an 0xFFD9 there can only be the end; a file cut in its pixels
 * has none (an EXIF thumbnail's own end marker comes before the scan and is not counted).
 */
function jpegDamage(bytes: Uint8Array): string | undefined {
  let at = 2;
  for (;;) {
    if (at + 4 > bytes.length) return `the file ends in its header (${CUT})`;
    if (bytes[at] !== 0xff) return `no segment marker at byte ${at}`;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    at += 2 + length;
    if (marker === 0xda) break;
    if (marker === 0xd9) return 'it ends before its image data';
  }
  for (let i = bytes.length - 2; i >= at; i--) {
    if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return undefined;
  }
  return `the file ends before its end-of-image marker (${CUT})`;
}

function isWebp(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP';
}

/** A WebP's RIFF header says how long the file is. */
function webpDamage(bytes: Uint8Array): string | undefined {
  const stated = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true) + 8;
  return stated > bytes.length ? `the file has ${bytes.length} of the ${stated} bytes it states (${CUT})` : undefined;
}

function isTiff(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*');
}

/** Where a TIFF's image data is: its strips' (or tiles') offsets and byte counts. */
const OFFSET_TAGS = [273, 324];
const COUNT_TAGS = [279, 325];
/** The size of one value of each TIFF field type that holds offsets or counts: SHORT, LONG. */
const TYPE_SIZE: Record<number, number> = { 3: 2, 4: 4 };

/** A TIFF's first directory, and its image data, inside the file. */
function tiffDamage(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > bytes.length) return `its directory is past the end of the file (${CUT})`;
  const entries = view.getUint16(ifd, little);
  if (ifd + 2 + entries * 12 > bytes.length) return `the file ends inside its directory (${CUT})`;
  const fields = new Map<number, number[]>();
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    const tag = view.getUint16(entry, little);
    const size = TYPE_SIZE[view.getUint16(entry + 2, little)];
    if (size === undefined || (!OFFSET_TAGS.includes(tag) && !COUNT_TAGS.includes(tag))) continue;
    const count = view.getUint32(entry + 4, little);
    const at = count * size <= 4 ? entry + 8 : view.getUint32(entry + 8, little);
    if (at + count * size > bytes.length) return `the file ends inside its directory's values (${CUT})`;
    const read = (k: number) => (size === 2 ? view.getUint16(at + k * 2, little) : view.getUint32(at + k * 4, little));
    fields.set(
      tag,
      Array.from({ length: count }, (_, k) => read(k)),
    );
  }
  for (const [offsetTag, countTag] of OFFSET_TAGS.map((tag, i) => [tag, COUNT_TAGS[i]!] as const)) {
    const offsets = fields.get(offsetTag);
    const counts = fields.get(countTag);
    if (!offsets || !counts) continue;
    const end = Math.max(...offsets.map((offset, k) => offset + (counts[k] ?? 0)));
    if (end > bytes.length) return `the file has ${bytes.length} of the ${end} bytes its image data needs (${CUT})`;
  }
  return undefined;
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}
