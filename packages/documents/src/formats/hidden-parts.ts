/**
 * The sheets and slides a file hides (officeparser reads them as any other, and does not say): an Excel sheet of
 * `state="hidden"` or `"veryHidden"` in `xl/workbook.xml`, a PowerPoint slide whose root says `show="0"`. They are
 * still converted; their headings say `(hidden)`, so that a pipeline publishing what it reads sees what the author
 * kept out of view.
 */
import { strFromU8, unzipSync } from 'fflate';

import { attribute, decodeXml } from '../xml-text.js';

function parts(bytes: Uint8Array, names: (name: string) => boolean): Record<string, string> {
  const read = unzipSync(bytes, { filter: (file) => names(file.name) });
  return Object.fromEntries(Object.entries(read).map(([name, data]) => [name, strFromU8(data)]));
}

/** The names of a workbook's hidden sheets (XLSX). */
export function hiddenSheets(bytes: Uint8Array): Set<string> {
  const workbook = parts(bytes, (name) => name === 'xl/workbook.xml')['xl/workbook.xml'] ?? '';
  const hidden = new Set<string>();
  for (const [tag] of workbook.matchAll(/<(?:\w+:)?sheet\s[^>]*>/g)) {
    const state = attribute(tag, 'state');
    const name = attribute(tag, 'name');
    if (name !== undefined && (state === 'hidden' || state === 'veryHidden')) hidden.add(decodeXml(name));
  }
  return hidden;
}

/** The numbers (from 1, in the order the presentation shows them) of a presentation's hidden slides (PPTX). */
export function hiddenSlides(bytes: Uint8Array): Set<number> {
  const xml = parts(bytes, (name) =>
    /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/[^/]+\.xml)$/.test(name),
  );
  const targets = new Map<string, string>();
  for (const [tag] of (xml['ppt/_rels/presentation.xml.rels'] ?? '').matchAll(/<Relationship\s[^>]*>/g)) {
    const id = attribute(tag, 'Id');
    const target = attribute(tag, 'Target');
    if (id && target) targets.set(id, `ppt/${target.replace(/^\/?ppt\//, '').replace(/^\.\//, '')}`);
  }
  const list = /<p:sldIdLst>([\s\S]*?)<\/p:sldIdLst>/.exec(xml['ppt/presentation.xml'] ?? '')?.[1] ?? '';
  const hidden = new Set<number>();
  for (const [index, [tag]] of [...list.matchAll(/<p:sldId\s[^>]*>/g)].entries()) {
    const slide = xml[targets.get(attribute(tag, 'r:id') ?? '') ?? ''];
    const root = slide && /<p:sld\s[^>]*>/.exec(slide)?.[0];
    if (root && /^(0|false)$/.test(attribute(root, 'show') ?? '')) hidden.add(index + 1);
  }
  return hidden;
}
