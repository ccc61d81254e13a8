/**
 * What a PDF states about itself, its document information (title, author, dates...), under the names crawlkit gives
 * every document's metadata (`@crawlkit/documents` for Word and OpenDocument files: `title`, `author`, `created`,
 * `modified`) and the v2 names of a web page's (`description`, `keywords`, `language`).
 */
/** The information dictionary's keys (PDF 32000 §14.3.3, and pdf.js's `Language` from the catalog), renamed. */
const NAMES: Record<string, string> = {
  Title: 'title',
  Author: 'author',
  Subject: 'description',
  Keywords: 'keywords',
  Creator: 'creator',
  Producer: 'producer',
  CreationDate: 'created',
  ModDate: 'modified',
  Language: 'language',
};
const DATES = new Set(['CreationDate', 'ModDate']);

/**
 * A PDF date ("D:20240102030405+01'00'", PDF 32000 §7.9.4) as ISO 8601 in UTC, undefined when it is not one. Parts
 * left out take their earliest value, a missing offset is UTC.
 */
export function pdfDate(value: string): string | undefined {
  const match = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(\d{2})?'?)?)?$/.exec(
    value.trim(),
  );
  if (!match) return undefined;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', sign, oh = '00', om = '00'] =
    match;
  const offset = sign === '+' || sign === '-' ? (sign === '+' ? 1 : -1) * (Number(oh) * 60 + Number(om)) : 0;
  const time = Date.UTC(+year!, +month - 1, +day, +hour, +minute, +second) - offset * 60_000;
  const date = new Date(time);
  return Number.isNaN(time) || +month < 1 || +month > 12 ? undefined : date.toISOString();
}

/**
 * The document information as metadata: `title`, `author`, `description` (the Subject), `keywords`, `creator` (the
 * application that made the original), `producer` (the one that wrote the PDF), `created` and `modified` (ISO 8601),
 * `language`. pdf.js's other keys (`PDFFormatVersion`, `IsLinearized`, custom entries) are left out.
 */
export function documentMetadata(info: Record<string, unknown>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, name] of Object.entries(NAMES)) {
    const raw = info[key];
    if (typeof raw !== 'string' || !raw.trim()) continue;
    const value = DATES.has(key) ? pdfDate(raw) : raw.trim();
    if (value) metadata[name] = value;
  }
  return metadata;
}
