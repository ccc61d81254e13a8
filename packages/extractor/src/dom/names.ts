// Tag and attribute names as the parser reads them: a name written in lower case that is one of the common ones is
// that constant string (nothing sliced or lower-cased, and a string V8 has already hashed and interned: the maps
// keyed by tag name and each element's attribute object look it up without hashing a new string); any other name
// is sliced and lower-cased.

// prettier-ignore
const COMMON = [
  // elements
  'a', 'abbr', 'article', 'aside', 'b', 'blockquote', 'body', 'br', 'button', 'circle', 'code', 'dd', 'defs', 'div',
  'dl', 'dt', 'em', 'figcaption', 'figure', 'footer', 'form', 'g', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head',
  'header', 'hr', 'html', 'i', 'iframe', 'img', 'input', 'label', 'li', 'link', 'main', 'meta', 'nav', 'noscript',
  'ol', 'option', 'p', 'path', 'picture', 'pre', 'rect', 'script', 'section', 'select', 'source', 'span', 'strong',
  'style', 'sup', 'svg', 'table', 'tbody', 'td', 'template', 'th', 'thead', 'time', 'title', 'tr', 'u', 'ul', 'use',
  // attributes
  'alt', 'aria-hidden', 'aria-label', 'async', 'charset', 'class', 'content', 'crossorigin', 'd', 'data-id',
  'data-src', 'data-srcset', 'datetime', 'decoding', 'defer', 'fill', 'height', 'href', 'id', 'itemprop', 'lang',
  'loading', 'name', 'property', 'rel', 'role', 'sizes', 'src', 'srcset', 'stroke', 'tabindex', 'target', 'type',
  'value', 'viewbox', 'width', 'xmlns',
];

/** The common names by length and first character. */
const BY_KEY = new Map<number, string[]>();
for (const name of COMMON) {
  const key = name.length * 128 + name.charCodeAt(0);
  const list = BY_KEY.get(key);
  if (list) list.push(name);
  else BY_KEY.set(key, [name]);
}

/** `html.slice(start, end).toLowerCase()`, as a constant string when it is a common name written in lower case. */
export function lowerName(html: string, start: number, end: number): string {
  const first = html.charCodeAt(start);
  if (first < 128) {
    const list = BY_KEY.get((end - start) * 128 + first);
    if (list) for (const name of list) if (html.startsWith(name, start)) return name;
  }
  return html.slice(start, end).toLowerCase();
}
