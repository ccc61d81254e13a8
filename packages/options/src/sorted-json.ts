/**
 * `value` as `JSON.stringify` says it, with the keys of every object sorted: two values that say the same whatever
 * their key order give the same string (settings compared between workers, options between requests). Keys whose
 * value JSON drops (`undefined`, functions) are dropped; a value JSON cannot say at all gives `'undefined'`.
 */
export function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isPlainObject(v) ? sortedKeys(v) : v)) ?? 'undefined';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function sortedKeys(v: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}
