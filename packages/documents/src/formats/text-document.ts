/**
 * Word (DOCX), OpenDocument text (ODT) and RTF: headings, lists, tables, links, images as references, footnotes; a
 * DOCX's, an ODT's and an RTF file's review comments after the body (`docx-comments.ts`).
 */
import type { OfficeParserAST } from 'officeparser';

import { officeHtml, officeMarkdown, officeMetadata, parseOffice } from '../office.js';
import type { ConvertedDocument, ConvertOptions, Converter } from '../types.js';
import { BODY_PART, commentsSection, docxAnchors, odtAnchors, rtfAnchors, trackedChanges } from './docx-comments.js';
import { odtStyled, STYLE_PARTS } from './odt-styles.js';
import { rtfMetadata } from './rtf-info.js';

/**
 * Embedded images become references to their part's name (the document's images, in order); their bytes are not
 * inlined into the markdown.
 */
function imageReferences(markdown: string, ast: OfficeParserAST): string {
  const names = (ast.attachments ?? []).filter((a) => a.type === 'image').map((a) => a.name);
  let index = 0;
  return markdown.replace(/!\[([^\]]*)\]\(data:[^)]*\)/g, (_m, alt: string) => {
    const name = names[index++] ?? 'embedded-image';
    return `![${alt}](${name})`;
  });
}

async function textDocument(
  bytes: Uint8Array,
  format: 'docx' | 'odt' | 'rtf',
  options: ConvertOptions,
): Promise<ConvertedDocument> {
  // the parts read beside officeparser's tree, kept by the zip guard as it inflates them (none for RTF)
  const parts = format === 'docx' ? (name: string) => name === BODY_PART : STYLE_PARTS;
  const parsed = await parseOffice(bytes, format, options, { parts });
  const { warnings } = parsed;
  const ast = format === 'odt' ? odtStyled(parsed.ast, parsed.parts) : parsed.ast;
  let markdown = imageReferences(await officeMarkdown(ast, format, { deadline: options.deadline }), ast);
  const metadata = format === 'rtf' ? { ...rtfMetadata(bytes), ...officeMetadata(ast) } : officeMetadata(ast);
  const xml = parsed.parts[format === 'docx' ? BODY_PART : 'content.xml'];
  const anchorsOf =
    format === 'docx'
      ? (ids: ReadonlySet<string>) => docxAnchors(xml, ids)
      : format === 'odt'
        ? () => odtAnchors(xml)
        : () => rtfAnchors(bytes);
  const comments = await commentsSection(ast, format, anchorsOf, options.deadline);
  if (comments) markdown = markdown ? `${markdown}\n\n${comments}` : comments;
  if (format === 'docx') {
    const changes = trackedChanges(parsed.parts[BODY_PART]);
    if (changes > 0) metadata.trackedChanges = changes;
  }
  const document: ConvertedDocument = { format, markdown, metadata, warnings };
  if (metadata.numPages !== undefined) document.pages = metadata.numPages;
  if (options.html) document.html = await officeHtml(attachmentsDropped(ast), format, options.deadline);
  return document;
}

function attachmentsDropped(ast: OfficeParserAST): OfficeParserAST {
  return { ...ast, attachments: [] };
}

export const docx: Converter = { format: 'docx', convert: (bytes, options) => textDocument(bytes, 'docx', options) };
export const odt: Converter = { format: 'odt', convert: (bytes, options) => textDocument(bytes, 'odt', options) };
export const rtf: Converter = { format: 'rtf', convert: (bytes, options) => textDocument(bytes, 'rtf', options) };
