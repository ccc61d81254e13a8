/** `url` without its fragment (`#…`): what a server sees of it, for comparing two URLs as requests. */
export function withoutFragment(url: string): string {
  const at = url.indexOf('#');
  return at < 0 ? url : url.slice(0, at);
}
