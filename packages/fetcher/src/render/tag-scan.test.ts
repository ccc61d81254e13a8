import { describe, expect, it } from 'vitest';

import { closingTag, nextTag } from './tag-scan.js';

const INPUTS = [
  '<!doctype html><html><head><title>T</title></head><body class="a b"><p id=x>a<b>b</b></p></body></html>',
  '<a', '</', '<!', '<!-', '<!--', '<?x', '<a b="x', 'x</1a>', '< a>', '</ a>', 'a < b > c', '<<p>>',
  '<a\u00a0b>t</a\u2028>', '<p>a<b c=">"/>', '<x-y/z>t</x-y>', '<script>if (a<b) c()</script', '<?xml v?><!x>',
  '<!-- a --> <p>b</p> <!-- c', '<IMG SRC=x><BR/></DIV >', `<p title="${'<'.repeat(50)}">x</p>`,
  '<script>a</scriptx></script ></SCRIPT\n>', '<style>a</</style>', '</scri</script>',
]; // prettier-ignore

describe('nextTag', () => {
  it('finds what the tag regex finds, on broken and unusual markup too', () => {
    const byRegex = (html: string) => {
      const re = /<(?:(\/?)([a-zA-Z][^\s/>]*)([^>]*)>|!--|[!?][^>]*>)/g;
      const out: unknown[] = [];
      for (let m = re.exec(html); m; m = re.exec(html)) {
        out.push({ start: m.index, end: m.index + m[0].length, name: m[2], closing: !!m[1], raw: m[3] ?? '' });
      }
      return out;
    };
    const byScan = (html: string) => {
      const out: unknown[] = [];
      for (let t = nextTag(html, 0); t; t = nextTag(html, t.end)) {
        out.push({ start: t.start, end: t.end, name: t.name, closing: t.closing, raw: t.raw });
      }
      return out;
    };
    for (const html of INPUTS) expect(byScan(html), html).toEqual(byRegex(html));
  });
});

describe('closingTag', () => {
  it("finds what the end tag's regex finds, from every position", () => {
    for (const tag of ['script', 'style']) {
      const re = new RegExp(`</${tag}\\s*>`, 'gi');
      for (const html of INPUTS) {
        for (let from = 0; from <= html.length; from++) {
          re.lastIndex = from;
          const m = re.exec(html);
          expect(closingTag(html, tag, from), `${html} from ${from}`).toEqual(
            m ? { index: m.index, length: m[0].length } : undefined,
          );
        }
      }
    }
  });
});
