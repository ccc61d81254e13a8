import type { StoredResult } from './types.js';

/**
 * The results of `rows`, in order, until their documents pass `maxChars` characters (the first one always taken):
 * the one rule of `ResultReadOptions.maxChars`. Stops reading `rows` there.
 */
export function takeWithin(rows: Iterable<StoredResult>, maxChars = Number.POSITIVE_INFINITY): StoredResult[] {
  const taken: StoredResult[] = [];
  let chars = 0;
  for (const row of rows) {
    if (taken.length > 0 && chars + row.document.length > maxChars) break;
    chars += row.document.length;
    taken.push({ seq: row.seq, key: row.key, document: row.document });
  }
  return taken;
}
