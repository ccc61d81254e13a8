import { parse as parseContentDisposition } from 'content-disposition';

/**
 * The name a served file goes by: the `filename` of its `Content-Disposition` header (`attachment;
 * filename="report.csv"`, RFC 6266, its `filename*` first), else the last segment of its URL's path (`data.csv`).
 * It names a text format that has no signature (CSV, TSV) served under a generic type (none,
 * `application/octet-stream`, `text/plain`), as an upload's name does: a download link (`/download?id=7`) is named
 * only by its header.
 */
export function fileNameOf(url: string, contentDisposition?: string): string | undefined {
  return (contentDisposition !== undefined ? dispositionName(contentDisposition) : undefined) ?? urlFileName(url);
}

function urlFileName(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || undefined;
  } catch {
    return undefined;
  }
}

/** The header's file name (jshttp's parser: `filename*` decoded first, lenient with what servers send), no path. */
function dispositionName(header: string): string | undefined {
  let name: string | undefined;
  try {
    name = parseContentDisposition(header).parameters.filename;
  } catch {
    return undefined;
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base || undefined;
}
