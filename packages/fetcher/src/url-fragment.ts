/** `url` without its fragment (`#…`): what a server sees of it, for comparing two URLs as requests. */
export function withoutFragment(url: string): string {
  const at = url.indexOf('#');
  return at < 0 ? url : url.slice(0, at);
}

/** The key a recorded URL is looked up by: its href without the fragment. */
export function urlKey(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}
