/**
 * An RTF file's document properties: its info group (`{\info {\title ...}{\author ...}{\creatim\yr2024\mo3...}}`),
 * which officeparser does not read, under the names a DOCX or ODT gives them. RTF's times carry no zone: they are read
 * as UTC.
 */
import { textDecoder } from '@crawlkit/options/text-decoder';

import { statedMetadata } from '../stated-metadata.js';
import type { DocumentMetadata } from '../types.js';

/**
 * A group's text: `\'hh` in the file's code page, `\uN` (its fallback skipped), escapes; other control words
 * dropped.
 */
export function groupText(body: string, codepage: string): string {
  const decoder = (() => {
    try {
      return textDecoder(codepage);
    } catch {
      return textDecoder('windows-1252');
    }
  })();
  let out = '';
  let skip = 0;
  const token = /\\'([0-9a-f]{2})|\\u(-?\d+) ?|\\([{}\\])|\\[a-z]+-?\d* ?|\\[\s\S]|[{}]|([^\\{}]+)/giy;
  for (let match = token.exec(body); match; match = token.exec(body)) {
    const [, hex, unicode, escaped, text] = match;
    if (skip > 0 && (hex || text)) {
      // the character after \uN stands in for it in readers without Unicode
      if (hex) skip--;
      else {
        out += text!.slice(skip);
        skip = Math.max(0, skip - text!.length);
      }
      continue;
    }
    if (hex) out += decoder.decode(Uint8Array.of(parseInt(hex, 16)));
    else if (unicode) {
      out += String.fromCharCode(Number(unicode) < 0 ? Number(unicode) + 65536 : Number(unicode));
      skip = 1;
    } else if (escaped) out += escaped;
    else if (text) out += text.replace(/[\r\n]/g, '');
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** `\creatim\yr2024\mo3\dy1\hr10\min0` as ISO 8601, undefined without a year. */
function time(body: string): string | undefined {
  const part = (name: string) => Number(new RegExp(`\\\\${name}(\\d+)`).exec(body)?.[1] ?? 0);
  const year = part('yr');
  if (!year) return undefined;
  const date = new Date(
    Date.UTC(year, Math.max(0, part('mo') - 1), part('dy') || 1, part('hr'), part('min'), part('sec')),
  );
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The code page of an RTF file's `\'hh` escapes (`\ansicpg`, before its text), Windows-1252 by default. */
export function codepageOf(head: string): string {
  const number = /\\ansicpg(\d+)/.exec(head)?.[1];
  return number ? `windows-${number}` : 'windows-1252';
}

/** The info group's fields: the first group of each name (LibreOffice writes a second `\author`, "Un-named"). */
export function rtfMetadata(bytes: Uint8Array): DocumentMetadata {
  const rtf = textDecoder('latin1').decode(bytes);
  const info = rtf.indexOf('{\\info');
  if (info < 0) return {};
  const codepage = codepageOf(rtf.slice(0, info));
  const fields = new Map<string, string>();
  // the info group's subgroups, each closed before the next opens (no nesting in them but escapes)
  const group = /\{\\(title|author|subject|keywords|doccomm|creatim|revtim)\b((?:\\[\s\S]|[^{}\\])*)\}/gy;
  let at = info + '{\\info'.length;
  for (;;) {
    while (/\s/.test(rtf[at] ?? '')) at++;
    if (rtf[at] !== '{') break;
    group.lastIndex = at;
    const match = group.exec(rtf);
    if (match) {
      if (!fields.has(match[1]!)) fields.set(match[1]!, match[2]!);
      at = group.lastIndex;
      continue;
    }
    // another subgroup ({\operator ...}, {\*\company ...}): skipped to its end
    let depth = 0;
    for (; at < rtf.length; at++) {
      if (rtf[at] === '\\') at++;
      else if (rtf[at] === '{') depth++;
      else if (rtf[at] === '}' && --depth === 0) break;
    }
    at++;
  }
  const text = (name: string) => {
    const body = fields.get(name);
    return body === undefined ? undefined : groupText(body, codepage);
  };
  return statedMetadata({
    title: text('title'),
    author: text('author'),
    description: text('subject') || text('doccomm'),
    keywords: text('keywords'),
    created: fields.has('creatim') ? time(fields.get('creatim')!) : undefined,
    modified: fields.has('revtim') ? time(fields.get('revtim')!) : undefined,
  });
}
