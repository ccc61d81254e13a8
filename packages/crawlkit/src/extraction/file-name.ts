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

/** `filename*=UTF-8''r%C3%A9sum%C3%A9.csv`, else `filename="report.csv"` (or unquoted), without any path. */
function dispositionName(header: string): string | undefined {
  const extended = /(?:^|;)\s*filename\*\s*=\s*([\w!#$%&+^`{}~.-]+)'[\w-]*'([^;\s]+)/i.exec(header);
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended[2]!);
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
    if (plain) name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2];
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base || undefined;
}
