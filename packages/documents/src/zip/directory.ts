/** The central directory of a zip archive: its entries' names and declared sizes, read without inflating anything. */

/** One entry as the central directory declares it (the sizes are the writer's word, checked while inflating). */
export interface ZipEntry {
  name: string;
  compressedSize: number;
  declaredSize: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
/** The end record is 22 bytes, followed by a comment of at most 64 KiB. */
const EOCD_SEARCH = 22 + 0xffff;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The archive's entries, or `undefined` when the bytes hold no readable central directory. */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - EOCD_SEARCH); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  const offset = view.getUint32(end + 16, true);
  if (offset >= bytes.length) return undefined;
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  let at = offset;
  // ZIP64 archives declare 0xffff entries here; the walk stops at the last central record either way.
  for (let n = 0; n < Math.max(count, 1) && at + 46 <= bytes.length; n++) {
    if (view.getUint32(at, true) !== CENTRAL) break;
    if (entries.length === maxEntries + 1) break;
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      compressedSize: view.getUint32(at + 20, true),
      declaredSize: view.getUint32(at + 24, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
    if (count !== 0xffff && entries.length === count) break;
  }
  return entries;
}

/** The content of the first entry when it is stored uncompressed (the `mimetype` of OpenDocument and EPUB). */
export function firstStoredEntry(bytes: Uint8Array): { name: string; text: string } | undefined {
  if (!isZip(bytes) || bytes.length < 30) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const method = view.getUint16(8, true);
  const size = view.getUint32(18, true);
  const nameLength = view.getUint16(26, true);
  const extraLength = view.getUint16(28, true);
  if (method !== 0 || size > 256) return undefined;
  const start = 30 + nameLength + extraLength;
  const decoder = new TextDecoder();
  return {
    name: decoder.decode(bytes.subarray(30, 30 + nameLength)),
    text: decoder.decode(bytes.subarray(start, start + size)).trim(),
  };
}
