/**
 * A PNG's chunks checked before OCR: Tesseract's PNG decoder (libpng in WebAssembly) prints its complaint about a
 * damaged file on the process's stderr, where crawlkit cannot catch it, and a refused image stops the recognizer
 * (the next image waits for a new one to start). A cut download or a file damaged on its way is found here by the
 * chunks' lengths and checksums, and refused with what to do.
 */
import { crc32 } from 'node:zlib';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= SIGNATURE.length && SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/**
 * Why a PNG is damaged, in words (`the file ends inside its IDAT chunk`, `its IHDR chunk's checksum does not match`),
 * or undefined for one whose chunks are whole. The pixels are not decoded: that is the decoder's job.
 */
export function pngDamage(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = SIGNATURE.length;
  for (let index = 0; ; index++) {
    if (at + 12 > bytes.length) return 'the file ends before its IEND chunk (a cut download?)';
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (index === 0 && type !== 'IHDR') return `its first chunk is ${JSON.stringify(type)}, not IHDR`;
    const end = at + 12 + length;
    if (end > bytes.length) return `the file ends inside its ${type} chunk (a cut download?)`;
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      return `its ${type} chunk's checksum does not match its content`;
    }
    if (type === 'IEND') return undefined;
    at = end;
  }
}
