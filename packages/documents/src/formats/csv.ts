/** CSV and TSV: one table, the first row as its header, within a cap of rows. */
import { lazyModule } from '@crawlkit/options/lazy-module';

import { DocumentError } from '../errors.js';
import { markdownTable } from '../markdown-table.js';
import { DEFAULT_LIMITS } from '../limits.js';
import type { ConvertedDocument, ConvertOptions, Converter } from '../types.js';

const csvParse = lazyModule(() => import('csv-parse/sync'));

async function table(bytes: Uint8Array, format: 'csv' | 'tsv', options: ConvertOptions): Promise<ConvertedDocument> {
  const max = options.maxRows ?? DEFAULT_LIMITS.maxRows;
  let rows: string[][];
  try {
    const { parse } = await csvParse();
    const parsed: string[][] = parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      bom: true,
      delimiter: format === 'tsv' ? '\t' : ',',
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      // one row past the cap tells that there were more
      to: max + 1,
    });
    rows = parsed;
  } catch (error) {
    throw new DocumentError(
      'SCRAPE_DOCUMENT_PARSE_ERROR',
      `The ${format.toUpperCase()} file could not be read: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const warnings: string[] = [];
  if (rows.length > max) {
    rows = rows.slice(0, max);
    warnings.push(`Only the first ${max} rows were converted (the limit of rows).`);
  }
  return { format, markdown: markdownTable(rows), metadata: { numRows: rows.length }, warnings };
}

export const csv: Converter = { format: 'csv', convert: (bytes, options) => table(bytes, 'csv', options) };
export const tsv: Converter = { format: 'tsv', convert: (bytes, options) => table(bytes, 'tsv', options) };
