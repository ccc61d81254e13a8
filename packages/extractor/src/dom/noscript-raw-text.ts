// Inside `<noscript>`, a browser with scripting on reads everything up to `</noscript>` as text. This parser reads it
// as markup (forums serve their posts there), where `<iframe>` opens raw text that only `</iframe>` ends: Google Tag
// Manager's snippet (`<noscript><iframe src="…"></noscript>`, without `</iframe>`) turned the rest of the page into
// that iframe's text. Such elements end at `</noscript>` here, as they do in the browser.

/** Elements whose content is raw text up to their own end tag. */
const RAW_OPEN = /<(iframe|noembed|noframes|xmp)[\s/>]/gi;
const NOSCRIPT_OPEN = /<noscript[\s>]/gi;
const NOSCRIPT_CLOSE = /<\/noscript\s*>/gi;
/** `<noscript` and a space or `>`, matched at a given index. */
const NOSCRIPT_AT = /<noscript[\s>]/iy;

/**
 * Index of the first `<noscript>` opening tag, or -1: `NOSCRIPT_OPEN`'s first match, found by jumping from `<` to
 * `<` (a case-insensitive regex reads every character: a millisecond a 5 MB page, most of it script).
 */
function firstNoscript(html: string): number {
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) {
    if ((html.charCodeAt(at + 1) | 0x20) !== 0x6e /* n */) continue;
    NOSCRIPT_AT.lastIndex = at;
    if (NOSCRIPT_AT.test(html)) return at;
  }
  return -1;
}

/**
 * `html` with `</iframe>` (or `</noembed>`, `</noframes>`, `</xmp>`) inserted before a `</noscript>` whose
 * `<noscript>` holds that element unclosed. Unchanged (the same string) when there is nothing to close. Linear: each
 * search starts where the previous ended.
 */
export function closeRawTextInNoscript(html: string): string {
  const first = firstNoscript(html);
  if (first < 0) return html;
  const out: string[] = [];
  let copied = 0;
  NOSCRIPT_OPEN.lastIndex = first;
  for (let open = NOSCRIPT_OPEN.exec(html); open; open = NOSCRIPT_OPEN.exec(html)) {
    NOSCRIPT_CLOSE.lastIndex = NOSCRIPT_OPEN.lastIndex;
    const close = NOSCRIPT_CLOSE.exec(html);
    if (!close) break;
    const inner = html.slice(NOSCRIPT_OPEN.lastIndex, close.index);
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
      out.push(html.slice(copied, close.index), `</${unclosed}>`);
      copied = close.index;
    }
    NOSCRIPT_OPEN.lastIndex = close.index + close[0].length;
  }
  if (copied === 0) return html;
  out.push(html.slice(copied));
  return out.join('');
}
