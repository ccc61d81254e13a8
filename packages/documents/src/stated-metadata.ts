import type { DocumentMetadata } from './types.js';

/** What a reader found of a file's properties, a missing or empty one as `undefined`, `''` or `false`. */
export type FoundMetadata = { [K in keyof DocumentMetadata]?: DocumentMetadata[K] | '' | false | undefined };

/** The properties a file states: `found` without the missing or empty ones. */
export function statedMetadata(found: FoundMetadata): DocumentMetadata {
  const metadata: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(found)) if (value) metadata[name] = value;
  return metadata;
}
