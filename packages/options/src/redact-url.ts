/**
 * `url` without the user and password of its user info, for logs and messages (`https://u:p@host/` is
 * `https://host/`); a string that is not a URL with credentials is returned as it is.
 */
export function redactUrl(url: URL | string): string {
  let parsed: URL;
  if (typeof url === 'string') {
    if (!url.includes('@')) return url;
    try {
      parsed = new URL(url);
    } catch {
      // A password holding `/`, `#` or `?` is what made it unparsable (the authority ended early): everything up to
      // the last `@` goes, at the risk of hiding more than the credentials.
      return url.replace(/\/\/[^]*@/, '//');
    }
  } else {
    parsed = url;
  }
  if (!parsed.username && !parsed.password) return parsed.href;
  const copy = new URL(parsed.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}
