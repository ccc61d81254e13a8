import { readFileSync } from 'node:fs';

import { CliError } from './errors.js';

/** Reads a file named on the command line; a file that cannot be read is a usage mistake (exit 2). */
export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${what} ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Reads a JSON value from inline text or `@path`. `example`, when given, is what to write, told when the text is not
 * JSON (`--parsers '[{"type":"pdf","maxPages":2}]'`).
 */
export function readJsonArgument(text: string, what: string, example?: string): unknown {
  const source = text.startsWith('@') ? readText(text.slice(1), what) : text;
  try {
    return JSON.parse(source) as unknown;
  } catch (error) {
    const write = example === undefined ? '' : `; write it as ${example}`;
    throw new CliError(`${what} is not valid JSON: ${(error as Error).message}${write}`, { cause: error });
  }
}
