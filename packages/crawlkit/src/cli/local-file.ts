import { statSync } from 'node:fs';

/** An argument that starts with a URL scheme (`https://`, `file://`): never a local path. */
function hasScheme(argument: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(argument);
}

/**
 * Whether a URL argument without a scheme names a file here: `crawlkit scrape report.pdf` would otherwise be read as
 * `http://report.pdf` and fail on DNS, or be refused as a URL, without a word about the file.
 */
export function isLocalFile(argument: string): boolean {
  if (hasScheme(argument)) return false;
  try {
    return statSync(argument).isFile();
  } catch {
    return false;
  }
}
