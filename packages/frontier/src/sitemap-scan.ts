// The common sitemap read without a general XML parser. A recrawl in a new process reads its site's sitemap first,
// before any page: htmlparser2's tokenizer, run cold over a 30 KB sitemap, costs 8-14 ms of it, a scan a tenth.
// Whatever the scan does not handle exactly as the parser would (comments, CDATA, entities other than XML's own,
// stray `<`, mismatched tags) makes it give up, and the parser reads the document.

/** An element of a sitemap that matters: `url`, `sitemap`, `loc`, `lastmod`, or another one. */
export interface SitemapEntryHandler {
  open(local: string): void;
  text(data: string): void;
  close(): void;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** XML's predefined entities and character references; any other `&` sends the document to the parser. */
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));/g;

/** Text with XML's entities replaced, or undefined when it holds an `&` that is not one of them. */
function decodeXmlText(raw: string): string | undefined {
  if (!raw.includes('&')) return raw;
  let out = '';
  let at = 0;
  ENTITY.lastIndex = 0;
  for (let m = ENTITY.exec(raw); m; m = ENTITY.exec(raw)) {
    if (raw.indexOf('&', at) !== m.index) return undefined;
    const code = m[2] !== undefined ? Number(m[2]) : m[3] !== undefined ? parseInt(m[3], 16) : undefined;
    if (code !== undefined && (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))) return undefined;
    out += raw.slice(at, m.index) + (code === undefined ? XML_ENTITIES[m[1]!] : String.fromCodePoint(code));
    at = ENTITY.lastIndex;
  }
  if (raw.indexOf('&', at) !== -1) return undefined;
  return out + raw.slice(at);
}

/** Where the tag whose name starts at `from` ends: its first `>` outside its attributes' quotes; -1 for none. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return i;
  }
  return -1;
}

/** A letter or `_`: what an element's name starts with (anything else after `<` is left to the parser). */
const isNameStart = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
/** Whitespace, `/` or `>`: where a name ends. */
const isNameEnd = (c: number) =>
  c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c || c === 0x2f || c === 0x3e;

/**
 * Reads `text` (which starts with `<`) tag by tag into `handler`, as htmlparser2 in XML mode would call its handler:
 * each element's local name (lowercase, its prefix dropped) when it opens, its text decoded, and each close. Returns
 * false, having stopped, where the document holds what the scan leaves to the parser.
 */
export function scanSitemapXml(text: string, handler: SitemapEntryHandler): boolean {
  const open: string[] = [];
  let at = 0;
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end === -1) return false;
    at = end + 2;
  }
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    const raw = lt === -1 ? text.slice(at) : text.slice(at, lt);
    if (raw && open.length) {
      const data = decodeXmlText(raw);
      if (data === undefined) return false;
      handler.text(data);
    }
    if (lt === -1) break;
    const closing = text.charCodeAt(lt + 1) === 0x2f; /* / */
    const start = closing ? lt + 2 : lt + 1;
    if (!isNameStart(text.charCodeAt(start))) return false;
    const gt = tagEnd(text, start);
    if (gt === -1) return false;
    let nameEnd = start + 1;
    let colon = -1;
    for (let c = text.charCodeAt(nameEnd); nameEnd < gt && !isNameEnd(c); c = text.charCodeAt(++nameEnd)) {
      if (c === 0x3a /* : */) colon = nameEnd;
    }
    const name = text.slice(start, nameEnd);
    if (closing) {
      if (open.pop() !== name || text.slice(nameEnd, gt).trim()) return false;
      handler.close();
    } else {
      handler.open((colon === -1 ? name : text.slice(colon + 1, nameEnd)).toLowerCase());
      if (text.charCodeAt(gt - 1) === 0x2f /* / */) handler.close();
      else open.push(name);
    }
    at = gt + 1;
  }
  return open.length === 0;
}
