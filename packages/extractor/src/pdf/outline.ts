/** A PDF's outline (bookmarks), from which `structure.ts` takes headings. */
import type { Line } from './layout.js';
import { type BodyStyle, MAX_HEADING, type OutlineIndex, outlineKey, sizeKey } from './structure.js';

/** Outline entries read for headings; a larger outline's rest is left out. */
const MAX_OUTLINE_ENTRIES = 2000;

/** The outline nodes pdf.js gives (`PDFDocumentProxy.getOutline`). */
export interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/** The parts of pdf.js's document an outline's pages are found with. */
export interface OutlineDocument {
  getOutline(): Promise<OutlineNode[] | null>;
  getDestination(id: string): Promise<unknown[] | null>;
  getPageIndex(ref: unknown): Promise<number>;
}

async function pageOf(doc: OutlineDocument, dest: OutlineNode['dest']): Promise<number | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    const target = explicit?.[0];
    if (typeof target === 'number') return target + 1;
    if (target && typeof target === 'object') return (await doc.getPageIndex(target)) + 1;
  } catch {
    // a destination that names no page: the entry matches on any page
  }
  return undefined;
}

/** The outline's entries by their text (`outlineKey`), each with its depth and the page it opens. */
export async function readOutline(doc: OutlineDocument): Promise<OutlineIndex> {
  const index: OutlineIndex = new Map();
  const outline = await doc.getOutline().catch(() => null);
  const queue: { node: OutlineNode; depth: number }[] = (outline ?? []).map((node) => ({ node, depth: 0 }));
  // breadth first, so a cut outline keeps its top levels
  for (let i = 0; i < queue.length && i < MAX_OUTLINE_ENTRIES; i++) {
    const { node, depth } = queue[i]!;
    const key = outlineKey(node.title ?? '');
    if (key && !index.has(key)) {
      const page = await pageOf(doc, node.dest);
      index.set(key, page === undefined ? { depth } : { depth, page });
    }
    for (const item of node.items ?? []) queue.push({ node: item, depth: depth + 1 });
  }
  return index;
}

/** A fresh copy of the outline index: each entry makes one heading per rendering of the pages. */
export const copyOutline = (index: OutlineIndex): OutlineIndex =>
  new Map([...index].map(([key, { depth, page }]) => [key, page === undefined ? { depth } : { depth, page }]));

/**
 * The outline one level down when the document has a title above it: a line in the document's largest heading type
 * that names no entry. The title alone is then `#` and the outline's top entries `##`, where both were `#` (the
 * outline's depth and the type's rank each started at one). Type headings keep their rank, so a Word export's
 * "Heading 1" in the second size meets its bookmark at `##`. Without such a title, the outline's top entries are `#`.
 */
export function underTitle(index: OutlineIndex, pages: readonly Line[][], body: BodyStyle): OutlineIndex {
  const largest = body.headingSizes[0];
  if (index.size === 0 || largest === undefined) return index;
  const titled = pages.some((lines) =>
    lines.some(
      (line) =>
        !line.scanned &&
        sizeKey(line.size) === largest &&
        /\p{L}/u.test(line.text) &&
        line.text.length <= MAX_HEADING &&
        !index.has(outlineKey(line.text)),
    ),
  );
  if (!titled) return index;
  return new Map([...index].map(([key, entry]) => [key, { ...entry, depth: entry.depth + 1 }]));
}
