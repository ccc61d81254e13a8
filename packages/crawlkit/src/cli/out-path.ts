import { accessSync, constants, statSync } from 'node:fs';
import { dirname, extname } from 'node:path';

import { unwritableDirReason } from '@crawlkit/options/temp-dir';

/**
 * Suffixes of text files a command's output is saved as: an `--out` ending in one (`-o page.md`, as curl's and wget's
 * `-o FILE` read) is that file, not a directory of that name.
 */
const TEXT_SUFFIXES = new Set([
  '.md',
  '.markdown',
  '.html',
  '.htm',
  '.json',
  '.ndjson',
  '.jsonl',
  '.txt',
  '.csv',
  '.xml',
]);

/**
 * Suffixes of images and PDFs: what is printed is text (a screenshot prints as the page's JSON), so such an `--out`
 * is refused, saying that a directory gets the image itself.
 */
const BINARY_SUFFIXES = new Set(['.png', '.jpg', '.jpeg', '.webp', '.pdf']);

/** What `--out path` names: the directory of a command's pages, or the file its output is saved in. */
export type OutTarget = { kind: 'directory' } | { kind: 'file' } | { kind: 'refused'; problem: string };

/**
 * What `--out path` is, checked before anything runs. A directory that exists, or a path ending in `/`, is a
 * directory whatever its name. A path named as a file (`-o page.md`, as curl's and wget's `-o FILE` read it) is the
 * file the output is saved in, as `> page.md` would (made or overwritten), when its directory exists and can be
 * written. A file that exists under another name is refused, since `--out` would otherwise make a directory there.
 */
export function outTarget(path: string): OutTarget {
  let isDirectory: boolean | undefined;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    isDirectory = undefined;
  }
  if (isDirectory === true || /[/\\]$/.test(path)) return { kind: 'directory' };
  const suffix = extname(path).toLowerCase();
  if (BINARY_SUFFIXES.has(suffix)) {
    return {
      kind: 'refused',
      problem:
        `--out ${path} reads as an image or PDF file, but what a command prints is text. --out DIR writes the ` +
        `screenshots and PDFs themselves (one file per page per format, plus manifest.json): write ${path}/ ` +
        'or another directory.',
    };
  }
  if (!TEXT_SUFFIXES.has(suffix)) {
    if (isDirectory === false) {
      return {
        kind: 'refused',
        problem: `--out ${path} is a file: give a directory (one that does not exist is made)`,
      };
    }
    return { kind: 'directory' };
  }
  const unwritable = fileProblem(path, isDirectory === false);
  return unwritable ? { kind: 'refused', problem: unwritable } : { kind: 'file' };
}

/** Why the output cannot be saved as `path`, if it cannot: its directory missing, or not writable. */
function fileProblem(path: string, exists: boolean): string | undefined {
  const where = exists ? path : dirname(path);
  try {
    accessSync(where, constants.W_OK);
    return undefined;
  } catch (error) {
    return (
      `--out ${path} saves the output as that file${exists ? '' : `, in ${where}`}, which ` +
      `${unwritableDirReason(error)}. For a directory of that name, write ${path}/.`
    );
  }
}
