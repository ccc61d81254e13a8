/**
 * The sheets and slides a file hides (officeparser reads them as any other, and does not say): an Excel sheet of
 * `state="hidden"` or `"veryHidden"` in `xl/workbook.xml`, a PowerPoint slide whose root says `show="0"`, an
 * OpenDocument sheet or slide whose style says `table:display="false"` or `presentation:visibility="hidden"` (in
 * `content.xml`'s automatic styles). They are still converted; their headings say `(hidden)`, so that a pipeline
 * publishing what it reads sees what the author kept out of view.
 */
import { attribute, decodeXml } from '../xml-text.js';
import type { PartNames, PartTexts } from '../zip/parts.js';

/** The parts that say what a file hides, read as text in the zip guard's pass (`zip/parts.ts`). */
export const HIDING_PARTS: Record<'xlsx' | 'ods' | 'pptx' | 'odp', PartNames> = {
  xlsx: (name) => name === 'xl/workbook.xml',
  ods: (name) => name === 'content.xml',
  pptx: (name) => /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/[^/]+\.xml)$/.test(name),
  odp: (name) => name === 'content.xml',
};

/** The automatic styles of an OpenDocument's `content.xml` whose properties say `hides` (`table:display="false"`). */
function hidingStyles(content: string, hides: RegExp): Set<string> {
  const styles = new Set<string>();
  for (const [style] of content.matchAll(/<style:style\s[^>]*>[\s\S]*?<\/style:style>/g)) {
    const name = attribute(style.slice(0, style.indexOf('>') + 1), 'style:name');
    if (name !== undefined && hides.test(style)) styles.add(name);
  }
  return styles;
}

/** The names of an OpenDocument spreadsheet's hidden sheets, or its slides' numbers (from 1), by their styles. */
function hiddenOdf(parts: PartTexts, kind: 'ods' | 'odp'): Set<string> {
  const content = parts['content.xml'] ?? '';
  const styles = hidingStyles(
    content,
    kind === 'ods' ? /\stable:display="false"/ : /\spresentation:visibility="hidden"/,
  );
  const hidden = new Set<string>();
  if (styles.size === 0) return hidden;
  const tag = kind === 'ods' ? /<table:table\s[^>]*>/g : /<draw:page\s[^>]*>/g;
  for (const [index, [found]] of [...content.matchAll(tag)].entries()) {
    const style = attribute(found, kind === 'ods' ? 'table:style-name' : 'draw:style-name');
    const name = kind === 'ods' ? decodeXml(attribute(found, 'table:name') ?? '') : String(index + 1);
    if (style !== undefined && styles.has(style)) hidden.add(name);
  }
  return hidden;
}

/** The names of a workbook's hidden sheets (XLSX, ODS), from its `HIDING_PARTS`. */
export function hiddenSheets(parts: PartTexts, format: 'xlsx' | 'ods'): Set<string> {
  if (format === 'ods') return hiddenOdf(parts, 'ods');
  const workbook = parts['xl/workbook.xml'] ?? '';
  const hidden = new Set<string>();
  for (const [tag] of workbook.matchAll(/<(?:\w+:)?sheet\s[^>]*>/g)) {
    const state = attribute(tag, 'state');
    const name = attribute(tag, 'name');
    if (name !== undefined && (state === 'hidden' || state === 'veryHidden')) hidden.add(decodeXml(name));
  }
  return hidden;
}

/**
 * The numbers (from 1, in the order the presentation shows them) of a presentation's hidden slides (PPTX, ODP), from
 * its `HIDING_PARTS`.
 */
export function hiddenSlides(parts: PartTexts, format: 'pptx' | 'odp'): Set<number> {
  if (format === 'odp') return new Set([...hiddenOdf(parts, 'odp')].map(Number));
  const targets = new Map<string, string>();
  for (const [tag] of (parts['ppt/_rels/presentation.xml.rels'] ?? '').matchAll(/<Relationship\s[^>]*>/g)) {
    const id = attribute(tag, 'Id');
    const target = attribute(tag, 'Target');
    if (id && target) targets.set(id, `ppt/${target.replace(/^\/?ppt\//, '').replace(/^\.\//, '')}`);
  }
  const list = /<p:sldIdLst>([\s\S]*?)<\/p:sldIdLst>/.exec(parts['ppt/presentation.xml'] ?? '')?.[1] ?? '';
  const hidden = new Set<number>();
  for (const [index, [tag]] of [...list.matchAll(/<p:sldId\s[^>]*>/g)].entries()) {
    const slide = parts[targets.get(attribute(tag, 'r:id') ?? '') ?? ''];
    const root = slide && /<p:sld\s[^>]*>/.exec(slide)?.[0];
    if (root && /^(0|false)$/.test(attribute(root, 'show') ?? '')) hidden.add(index + 1);
  }
  return hidden;
}
