import { readFileSync } from 'node:fs';

/** The version of the crawlkit package (read from its package.json, beside `src/` and `dist/`). */
export const VERSION: string = readVersion();

function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const version = (manifest as { version?: unknown } | null)?.version;
  return typeof version === 'string' ? version : '0.0.0';
}
