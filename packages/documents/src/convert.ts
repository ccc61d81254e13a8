import { declaredFormat, detectFormat, DOCUMENT_TYPES, type DocumentInput } from './detect.js';
import { DocumentError, isDocumentError } from './errors.js';
import { csv, tsv } from './formats/csv.js';
import { doc } from './formats/doc.js';
import { epub } from './formats/epub.js';
import { image } from './formats/image.js';
import { odp, pptx } from './formats/presentation.js';
import { ods, xlsx } from './formats/spreadsheet.js';
import { docx, odt, rtf } from './formats/text-document.js';
import { DEFAULT_LIMITS } from './limits.js';
import type { ConvertedDocument, ConvertOptions, Converter, DocumentFormat } from './types.js';

const CONVERTERS: Record<DocumentFormat, Converter> = {
  docx,
  doc,
  xlsx,
  ods,
  pptx,
  odp,
  odt,
  rtf,
  epub,
  csv,
  tsv,
  image,
};

/**
 * Converts a document to markdown (and HTML when asked), recognizing its format by signature, then by its type or
 * name for text formats. Fails with a `DocumentError`: `SCRAPE_DOCUMENT_ENCRYPTED` for a file saved with a password,
 * `SCRAPE_DOCUMENT_TOO_LARGE` for a file past a cap,
 * `SCRAPE_DOCUMENT_XML_ENTITIES` for XML that declares entities, `SCRAPE_DOCUMENT_TIMEOUT` when the deadline passed
 * before anything could be returned, `SCRAPE_DOCUMENT_PARSE_ERROR` otherwise (and for a file that is none of its
 * formats).
 */
export async function convertDocument(input: DocumentInput, options: ConvertOptions = {}): Promise<ConvertedDocument> {
  const detected = detectFormat(input);
  const format = detected ?? declaredFormat(input);
  if (format === 'xls') {
    throw new DocumentError(
      'SCRAPE_DOCUMENT_PARSE_ERROR',
      'Excel 97-2003 workbooks (.xls) are not converted: no well-kept reader of them is published on npm. Save the ' +
        'workbook as .xlsx, .ods or .csv.',
    );
  }
  if (format === 'ppt') {
    throw new DocumentError(
      'SCRAPE_DOCUMENT_PARSE_ERROR',
      'PowerPoint 97-2003 presentations (.ppt) are not converted: no well-kept reader of them is published on npm. ' +
        'Save the presentation as .pptx or .odp.',
    );
  }
  if (format === 'encrypted') {
    throw new DocumentError(
      'SCRAPE_DOCUMENT_ENCRYPTED',
      'The document is protected by a password (encrypted), so it cannot be read. Save it without a password.',
    );
  }
  if (format === undefined) {
    throw new DocumentError('SCRAPE_DOCUMENT_PARSE_ERROR', 'The file is not a document format crawlkit converts.');
  }
  if (format === 'image' && !options.images) {
    throw new DocumentError(
      'SCRAPE_DOCUMENT_PARSE_ERROR',
      "Images are read by OCR only with the image parser (parsers: ['image']).",
    );
  }
  if (detected === undefined) {
    // the served type or the name says a format the bytes are not
    const served = DOCUMENT_TYPES[input.contentType] !== undefined;
    const name = format.toUpperCase();
    if (input.bytes.length === 0) {
      const said = served ? `served as ${name}` : `named ${input.fileName}`;
      throw new DocumentError('SCRAPE_DOCUMENT_PARSE_ERROR', `The file is empty (0 bytes), though ${said}.`);
    }
    const said = served ? `served as ${name} (${input.contentType})` : `named ${input.fileName}`;
    throw new DocumentError(
      'SCRAPE_DOCUMENT_PARSE_ERROR',
      `The file is ${said}, but its bytes are not in the ${name} format: it is damaged, truncated or of another format.`,
    );
  }
  let document: ConvertedDocument;
  try {
    document = await CONVERTERS[format].convert(input.bytes, options);
  } catch (error) {
    if (isDocumentError(error)) throw error;
    if (error instanceof RangeError) {
      throw new DocumentError('SCRAPE_DOCUMENT_TOO_LARGE', `The document is too large to convert: ${error.message}.`, {
        cause: error,
      });
    }
    throw new DocumentError(
      'SCRAPE_DOCUMENT_PARSE_ERROR',
      `The ${format.toUpperCase()} document could not be read (${(error as Error).message}): it may be damaged or cut short.`,
      { cause: error },
    );
  }
  const max = options.maxMarkdownChars ?? DEFAULT_LIMITS.maxMarkdownChars;
  if (document.markdown.length > max) {
    document.markdown = document.markdown.slice(0, max);
    document.warnings.push(`The markdown was cut at ${max} characters (the limit of markdown).`);
  }
  return document;
}
