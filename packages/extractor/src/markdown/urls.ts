const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const NEEDS_ESCAPE = /[\s<>\\()]/;

/** Resolves relative URLs against the base URL (the option, then `<base href>`); without a base, leaves them. */
export class UrlResolver {
  #base: URL | undefined;
  #sawBaseElement = false;

  constructor(baseUrl: string | undefined) {
    this.#base = parse(baseUrl);
  }

  /** The first `<base href>` of the document. */
  setBaseElement(href: string): void {
    if (this.#sawBaseElement) return;
    this.#sawBaseElement = true;
    const base = parse(href.trim(), this.#base);
    if (base) this.#base = base;
  }

  resolve(href: string): string {
    const url = href.trim();
    if (!this.#base || SCHEME.test(url)) return url;
    return parse(url, this.#base)?.href ?? url;
  }
}

function parse(url: string | undefined, base?: URL): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}

/** A link destination: whitespace percent-encoded, `<`/`>` encoded, backslashes and unbalanced parentheses escaped. */
export function formatDestination(url: string): string {
  if (!NEEDS_ESCAPE.test(url)) return url;
  let out = url
    .replace(/[\t\n\r\f]/g, '')
    .replace(/ /g, '%20')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E');
  out = out.replace(/\\/g, '\\\\');
  if (out.includes('(') || out.includes(')')) {
    let depth = 0;
    let balanced = true;
    for (const ch of out) {
      if (ch === '(') depth++;
      else if (ch === ')' && --depth < 0) balanced = false;
    }
    if (!balanced || depth !== 0) out = out.replace(/[()]/g, '\\$&');
  }
  return out;
}

/** ` "title"` for a non-empty title attribute, else ''. */
export function formatTitle(title: string | undefined): string {
  if (!title) return '';
  const t = title.replace(/\s+/g, ' ').trim();
  return t === '' ? '' : ` "${t.replace(/[\\"]/g, '\\$&')}"`;
}
