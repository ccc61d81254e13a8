/**
 * Excel (XLSX) and OpenDocument spreadsheets (ODS): one table per sheet, within a cap of cells; a hidden sheet's
 * heading says `(hidden)` (`hidden-parts.ts`).
 */
import type { OfficeContentNode } from 'officeparser';

import { headingMarkdown, officeHtml, officeMarkdown, officeMetadata, parseOffice } from '../office.js';
import type { ConvertedDocument, ConvertOptions, Converter } from '../types.js';
import { HIDING_PARTS, hiddenSheets } from './hidden-parts.js';

async function spreadsheet(bytes: Uint8Array, format: 'xlsx' | 'ods', options: ConvertOptions) {
  const { ast, warnings, parts } = await parseOffice(bytes, format, options, { parts: HIDING_PARTS[format] });
  const sheets = ast.content.filter((node) => node.type === 'sheet');
  const hidden = hiddenSheets(parts, format);
  const sections: string[] = [];
  let timedOut = false;
  for (const [index, sheet] of sheets.entries()) {
    if (options.deadline !== undefined && Date.now() > options.deadline) {
      warnings.push(`Only the first ${index} of ${sheets.length} sheets were converted before the time ran out.`);
      timedOut = true;
      break;
    }
    const name = (sheet.metadata as { sheetName?: string } | undefined)?.sheetName ?? `Sheet ${index + 1}`;
    const table = await officeMarkdown(ast, format, { content: [asTable(sheet)] });
    const heading = await headingMarkdown(ast, format, `${name}${hidden.has(name) ? ' (hidden)' : ''}`);
    sections.push(table ? `${heading}\n\n${table}` : heading);
  }
  const metadata = { ...officeMetadata(ast), numSheets: sheets.length };
  delete metadata.numPages;
  const document: ConvertedDocument = { format, markdown: sections.join('\n\n'), metadata, warnings };
  if (timedOut) document.timedOut = true;
  if (options.html) document.html = await officeHtml(ast, format);
  return document;
}

/** A sheet's rows as one table node (the sheet node itself renders as a rule and its rows). */
function asTable(sheet: OfficeContentNode): OfficeContentNode {
  return { type: 'table', children: sheet.children ?? [] };
}

export const xlsx: Converter = { format: 'xlsx', convert: (bytes, options) => spreadsheet(bytes, 'xlsx', options) };
export const ods: Converter = { format: 'ods', convert: (bytes, options) => spreadsheet(bytes, 'ods', options) };
