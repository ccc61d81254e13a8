const MIB = 1024 * 1024;

/**
 * A size of a file or of data as crawlkit's messages word it (the parse limits of `ck.parse()`, `POST /v2/parse` and
 * `firecrawl_parse`; the decode and inflate limits of PDFs and office documents): its bytes under 1 MiB, a whole
 * number of MiB as that ("50 MiB"), else MiB to a tenth with the bytes ("50.0 MiB (52428801 bytes)"). Two sizes that
 * differ never read the same, so a file one byte over its limit never reads as the limit itself.
 */
export function sizeText(bytes: number): string {
  if (bytes < MIB) return `${bytes} bytes`;
  if (bytes % MIB === 0) return `${bytes / MIB} MiB`;
  return `${(bytes / MIB).toFixed(1)} MiB (${bytes} bytes)`;
}
