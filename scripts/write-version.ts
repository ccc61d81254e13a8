/**
 * Writes the version of the package it runs in (its `package.json`) into `src/cli/version.ts`, before its `tsc`
 * build, when it differs: the code carries its version as a literal, which every bundler keeps, instead of reading
 * `package.json` at run time, which a one-file bundle has not. Run from the package's folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const FILE = 'src/cli/version.ts';
const LITERAL = /^export const VERSION: string = '[^']*';$/m;

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const source = readFileSync(FILE, 'utf8');
if (!LITERAL.test(source)) throw new Error(`${FILE} has no line "export const VERSION: string = '...';" to write`);
const written = source.replace(LITERAL, `export const VERSION: string = '${version}';`);
if (written !== source) writeFileSync(FILE, written);
