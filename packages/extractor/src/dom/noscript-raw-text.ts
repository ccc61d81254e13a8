// Inside `<noscript>`, a browser with scripting on reads everything up to `</noscript>` as text. This parser reads it
// as markup (forums serve their posts there), where `<iframe>` opens raw text that only `</iframe>` ends: Google Tag
// Manager's snippet (`<noscript><iframe src="…"></noscript>`, without `</iframe>`) turned the rest of the page into
// that iframe's text. Such elements end at `</noscript>` here, as they do in the browser.

/** Elements whose content is raw text up to their own end tag. */
const RAW_OPEN = /<(iframe|noembed|noframes|xmp)[\s/>]/gi;
/** `<noscript` and a space or `>`, matched at a given index. */
const NOSCRIPT_AT = /<noscript[\s>]/iy;
/** `</noscript>`, spaces allowed before the `>`, matched at a given index. */
const NOSCRIPT_CLOSE_AT = /<\/noscript\s*>/iy;

/**
 * The first match of the sticky `tag` at a `<` from index `from` on (its index, `tag.lastIndex` past it), or -1:
 * found by jumping from `<` to `<` (a case-insensitive regex searching the page reads every character: a millisecond
 * a 5 MB page, most of it script). `second` is the lower-cased letter after the `<`, checked before the regex.
 */
function nextTag(html: string, from: number, tag: RegExp, second: number): number {
  for (let at = html.indexOf('<', from); at >= 0; at = html.indexOf('<', at + 1)) {
    if ((html.charCodeAt(at + 1) | 0x20) !== second) continue;
    tag.lastIndex = at;
    if (tag.test(html)) return at;
  }
  return -1;
}

const N = 0x6e;
/** `/`: `| 0x20` leaves it as it is. */
const SLASH = 0x2f;

/**
 * `html` with `</iframe>` (or `</noembed>`, `</noframes>`, `</xmp>`) inserted before a `</noscript>` whose
 * `<noscript>` holds that element unclosed. Unchanged (the same string) when there is nothing to close. Linear: each
 * search starts where the previous ended.
 */
export function closeRawTextInNoscript(html: string): string {
  const out: string[] = [];
  let copied = 0;
  for (let open = nextTag(html, 0, NOSCRIPT_AT, N); open >= 0;) {
    const innerStart = NOSCRIPT_AT.lastIndex;
    const close = nextTag(html, innerStart, NOSCRIPT_CLOSE_AT, SLASH);
    if (close < 0) break;
    const closeEnd = NOSCRIPT_CLOSE_AT.lastIndex;
    const inner = html.slice(innerStart, close);
    const lower = inner.toLowerCase();
    let unclosed: string | null = null;
    RAW_OPEN.lastIndex = 0;
    for (let raw = RAW_OPEN.exec(inner); raw; raw = RAW_OPEN.exec(inner)) {
      const name = raw[1]!.toLowerCase();
      const end = lower.indexOf(`</${name}`, RAW_OPEN.lastIndex);
      if (end < 0) {
        unclosed = name;
        break;
      }
      RAW_OPEN.lastIndex = end;
    }
    if (unclosed) {
      out.push(html.slice(copied, close), `</${unclosed}>`);
      copied = close;
    }
    open = nextTag(html, closeEnd, NOSCRIPT_AT, N);
  }
  if (copied === 0) return html;
  out.push(html.slice(copied));
  return out.join('');
}
