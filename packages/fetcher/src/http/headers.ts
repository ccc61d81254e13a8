/** Defaults overridden by `overrides` (names lower-cased); a fresh object the caller may change. */
export function mergeRequestHeaders(
  defaults: Readonly<Record<string, string>>,
  overrides: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const merged: Record<string, string> = { ...defaults };
  if (overrides) for (const name of Object.keys(overrides)) merged[name.toLowerCase()] = String(overrides[name]);
  return merged;
}

/** Flattens undici's parsed headers: repeated headers are joined with `, `, `set-cookie` with `\n`. */
export function flattenResponseHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    flat[name] = typeof value === 'string' ? value : value.join(name === 'set-cookie' ? '\n' : ', ');
  }
  return flat;
}
