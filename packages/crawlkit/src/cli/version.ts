import { readFileSync } from 'node:fs';

/** The version of the crawlkit package (read from its package.json, beside `src/` and `dist/`). */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
