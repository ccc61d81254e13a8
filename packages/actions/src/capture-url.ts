/** The `data:` URL a capture (a screenshot or a PDF) is returned as when no `outputDir` is set, and its reading. */

/** A capture's media type and base64 payload. */
export interface CaptureData {
  /** `image/png`, `image/jpeg`, …, or `application/pdf`. */
  mimeType: string;
  base64: string;
}

const CAPTURE_URL = /^data:(image\/[a-z+]+|application\/pdf);base64,(.*)$/s;

/** `bytes` as a capture's `data:` URL. */
export function toCaptureUrl(bytes: Uint8Array, mimeType: string): string {
  return `data:${mimeType};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** A screenshot's or a PDF's `data:` URL read back; `undefined` for any other string. */
export function readCaptureUrl(value: string): CaptureData | undefined {
  const match = CAPTURE_URL.exec(value);
  return match ? { mimeType: match[1]!, base64: match[2]! } : undefined;
}
