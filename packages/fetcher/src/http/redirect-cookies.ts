/**
 * Cookies set by the responses of one redirect chain, sent back on its later hops, as a browser would: sites
 * commonly answer a first visit with `302 + Set-Cookie` to the same URL. Scoped to one `fetch()`: nothing is kept
 * between requests. Honours `Domain`, `Secure` and deletion by `Max-Age`/`Expires`; `Path` is not narrowed.
 */
export class RedirectCookies {
  readonly #cookies = new Map<string, { value: string; domain: string; hostOnly: boolean; secure: boolean }>();
  /** Changes whenever a cookie is set or deleted: a revisited URL with a different jar is not a loop. */
  version = 0;

  /** Records the `set-cookie` headers of a response from `url`. */
  store(url: URL, setCookie: string | string[] | undefined): void {
    if (setCookie === undefined) return;
    const host = url.hostname.toLowerCase();
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let domain = host;
      let hostOnly = true;
      let secure = false;
      let expired = false;
      for (const attribute of attributes) {
        const [rawKey = '', ...rest] = attribute.split('=');
        const key = rawKey.trim().toLowerCase();
        const attrValue = rest.join('=').trim();
        if (key === 'domain' && attrValue) {
          const candidate = attrValue.replace(/^\./, '').toLowerCase();
          // A cookie for another site is ignored, as browsers do.
          if (host !== candidate && !host.endsWith(`.${candidate}`)) {
            expired = true;
            break;
          }
          domain = candidate;
          hostOnly = false;
        } else if (key === 'secure') {
          secure = true;
        } else if (key === 'max-age') {
          expired = Number(attrValue) <= 0;
        } else if (key === 'expires') {
          const time = Date.parse(attrValue);
          if (!Number.isNaN(time) && time <= Date.now()) expired = true;
        }
      }
      const id = `${domain}\t${name}`;
      if (expired) {
        if (this.#cookies.delete(id)) this.version++;
      } else if (this.#cookies.get(id)?.value !== value) {
        this.#cookies.set(id, { value, domain, hostOnly, secure });
        this.version++;
      }
    }
  }

  /** The `cookie` header value for a request to `url`, or `undefined` when no stored cookie applies. */
  header(url: URL): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    const host = url.hostname.toLowerCase();
    const https = url.protocol === 'https:';
    const pairs: string[] = [];
    for (const [id, cookie] of this.#cookies) {
      if (cookie.secure && !https) continue;
      const matches = cookie.hostOnly
        ? host === cookie.domain
        : host === cookie.domain || host.endsWith(`.${cookie.domain}`);
      if (matches) pairs.push(`${id.slice(id.indexOf('\t') + 1)}=${cookie.value}`);
    }
    return pairs.length ? pairs.join('; ') : undefined;
  }
}
