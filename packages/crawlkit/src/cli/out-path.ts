import { statSync } from 'node:fs';
import { extname } from 'node:path';

/**
 * Suffixes of files a page's output is saved as: a new `--out` ending in one (`-o page.md`, as curl's and wget's
 * `-o FILE` read) is meant as a file, and would otherwise become a directory of that name.
 */
const FILE_SUFFIXES = new Set([
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
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
  '.pdf',
]);

/**
 * What is wrong with `--out path` as the directory of a command's pages, checked before anything runs: a file that
 * exists, or a path that does not exist and is named as a file. A directory that exists, or a path ending in `/`,
 * is taken whatever its name.
 */
export function outPathProblem(path: string): string | undefined {
  let isDirectory: boolean | undefined;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    isDirectory = undefined;
  }
  if (isDirectory === true || /[/\\]$/.test(path)) return undefined;
  if (isDirectory === false) return `--out ${path} is a file: give a directory (one that does not exist is made)`;
  if (!FILE_SUFFIXES.has(extname(path).toLowerCase())) return undefined;
  return (
    `--out ${path} reads as a file name, but --out is a directory (one file per page per format, plus ` +
    `manifest.json). To save the output as ${path}, redirect stdout: crawlkit … > ${path}. ` +
    `For a directory of that name, write ${path}/ or make it first.`
  );
}
