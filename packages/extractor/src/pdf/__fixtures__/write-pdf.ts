/**
 * PDFs laid out like real ones (pdf-lib, tests only): paragraphs wrapped to a measure, headings in larger or bold type,
 * indented list items, two columns, an outline (bookmarks) and the document information. Each structure rule of
 * `pdf/layout.ts` and `pdf/structure.ts` has a PDF written here that shows it.
 */
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  type PDFFont,
  type PDFPage,
  type PDFRef,
  PDFString,
  StandardFonts,
} from 'pdf-lib';

export interface Block {
  text: string;
  /** @default 10 */
  size?: number;
  bold?: boolean;
  /** Left edge, in points from the column's left. @default 0 */
  x?: number;
  /** Measure the text is wrapped to. @default the column's width less `x` */
  width?: number;
  /** The first line's indent. @default 0 */
  indent?: number;
  /** Further lines' indent (a list item's text hangs past its marker). @default 0 */
  hang?: number;
  /** Space above the block, in points. @default 0 */
  gap?: number;
}

export interface Page {
  /** Full-width blocks above the columns. */
  head?: Block[];
  blocks: Block[];
  /** @default 1 */
  columns?: 1 | 2;
  /** Draw the lines row by row across the columns, as some writers do, rather than column by column. */
  acrossColumns?: boolean;
}

export interface OutlineItem {
  title: string;
  /** 1-based page the bookmark opens. */
  page: number;
  children?: OutlineItem[];
}

export interface WriteOptions {
  info?: {
    title?: string;
    author?: string;
    subject?: string;
    keywords?: string[];
    creator?: string;
    producer?: string;
    created?: Date;
    modified?: Date;
    /** The catalog's `/Lang`. */
    language?: string;
  };
  outline?: OutlineItem[];
  /**
   * Name the fonts as an OCR engine's text layer does (`GlyphLessF`, matched by the GlyphLessFont rule), in place in
   * the saved bytes so that the file's offsets hold.
   */
  ocrLayer?: boolean;
}

const WIDTH = 612;
const HEIGHT = 792;
const MARGIN = 72;
const GUTTER = 24;

/** `text`'s words in lines no wider than `width` at `size`, the first line `indent` narrower. */
function wrap(font: PDFFont, text: string, size: number, width: number, indent: number, hang: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const room = width - (lines.length === 0 ? indent : hang);
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > room) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

export async function writePdf(pages: Page[], options: WriteOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const info = options.info ?? {};
  if (info.title) doc.setTitle(info.title);
  if (info.author) doc.setAuthor(info.author);
  if (info.subject) doc.setSubject(info.subject);
  if (info.keywords) doc.setKeywords(info.keywords);
  if (info.creator) doc.setCreator(info.creator);
  if (info.producer) doc.setProducer(info.producer);
  if (info.created) doc.setCreationDate(info.created);
  if (info.modified) doc.setModificationDate(info.modified);
  if (info.language) doc.catalog.set(PDFName.of('Lang'), PDFString.of(info.language));
  for (const spec of pages) {
    const page = doc.addPage([WIDTH, HEIGHT]);
    const drawn: { line: string; x: number; y: number; size: number; font: PDFFont }[] = [];
    let y = HEIGHT - MARGIN;
    const flow = (blocks: Block[], left: number, width: number, top: number, next?: () => [number, number]) => {
      y = top;
      for (const block of blocks) {
        const size = block.size ?? 10;
        const font = block.bold ? bold : regular;
        const x = block.x ?? 0;
        y -= block.gap ?? 0;
        const lines = wrap(font, block.text, size, block.width ?? width - x, block.indent ?? 0, block.hang ?? 0);
        lines.forEach((line, i) => {
          if (y - size * 1.2 < MARGIN && next) [left, y] = next();
          y -= size * 1.2;
          const indent = i === 0 ? (block.indent ?? 0) : (block.hang ?? 0);
          drawn.push({ line, x: left + x + indent, y, size, font });
        });
      }
    };
    flow(spec.head ?? [], MARGIN, WIDTH - 2 * MARGIN, y);
    const columnTop = y - (spec.head?.length ? 12 : 0);
    if ((spec.columns ?? 1) === 1) flow(spec.blocks, MARGIN, WIDTH - 2 * MARGIN, columnTop);
    else {
      const width = (WIDTH - 2 * MARGIN - GUTTER) / 2;
      flow(spec.blocks, MARGIN, width, columnTop, () => [MARGIN + width + GUTTER, columnTop]);
    }
    if (spec.acrossColumns) drawn.sort((p, q) => q.y - p.y || p.x - q.x);
    for (const { line, ...at } of drawn) page.drawText(line, at);
  }
  if (options.outline?.length) addOutline(doc, options.outline);
  const bytes = await doc.save({ useObjectStreams: false });
  if (!options.ocrLayer) return bytes;
  const text = Buffer.from(bytes).toString('latin1').replaceAll('/BaseFont /Helvetica', '/BaseFont /GlyphLessF');
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

/** The outline (bookmarks) pdf-lib has no call for, written as the dictionaries of PDF 32000 §12.3.3. */
function addOutline(doc: PDFDocument, items: OutlineItem[]): void {
  const ctx = doc.context;
  const pages: PDFPage[] = doc.getPages();
  const root = ctx.nextRef();
  const write = (list: OutlineItem[], parent: PDFRef): PDFRef[] => {
    const refs = list.map(() => ctx.nextRef());
    list.forEach((item, i) => {
      const dict = ctx.obj({});
      dict.set(PDFName.of('Title'), PDFHexString.fromText(item.title));
      dict.set(PDFName.of('Parent'), parent);
      dict.set(PDFName.of('Dest'), ctx.obj([pages[item.page - 1]!.ref, PDFName.of('XYZ'), PDFNull, PDFNull, PDFNull]));
      if (i > 0) dict.set(PDFName.of('Prev'), refs[i - 1]!);
      if (i < list.length - 1) dict.set(PDFName.of('Next'), refs[i + 1]!);
      const kids = item.children?.length ? write(item.children, refs[i]!) : [];
      if (kids.length) {
        dict.set(PDFName.of('First'), kids[0]!);
        dict.set(PDFName.of('Last'), kids[kids.length - 1]!);
        dict.set(PDFName.of('Count'), ctx.obj(kids.length));
      }
      ctx.assign(refs[i]!, dict);
    });
    return refs;
  };
  const top = write(items, root);
  const dict = ctx.obj({});
  dict.set(PDFName.of('Type'), PDFName.of('Outlines'));
  dict.set(PDFName.of('First'), top[0]!);
  dict.set(PDFName.of('Last'), top[top.length - 1]!);
  dict.set(PDFName.of('Count'), ctx.obj(top.length));
  ctx.assign(root, dict);
  doc.catalog.set(PDFName.of('Outlines'), root);
}
