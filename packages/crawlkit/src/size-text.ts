/**
 * A size of a file as the parse limits word it (`ck.parse()`, `POST /v2/parse`, `firecrawl_parse`): its bytes under
 * 1 MiB, else MiB to a tenth with the bytes, so that a file one byte over its limit never reads as the limit itself.
 */
export function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / 1024 / 1024).toFixed(1)} MiB (${bytes} bytes)`;
}
