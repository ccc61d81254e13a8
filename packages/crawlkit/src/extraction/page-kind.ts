import { documentFormat } from '@crawlkit/documents/detect';

import type { PageKind } from './extraction.js';

/** How much of a textual page is read to tell XHTML served as XML from an XML document. */
const HEAD = 1024;

function isHtmlType(type: string): boolean {
  return type === 'text/html' || type === 'application/xhtml+xml' || type === '';
}

function isJsonType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json') || type === 'text/json';
}

function isXmlType(type: string): boolean {
  return type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
}

/** Whether `bytes` open with a PDF's `%PDF` magic. */
export function startsWithPdfMagic(bytes: Uint8Array | undefined): boolean {
  return (
    bytes !== undefined &&
    bytes.length > 4 &&
    bytes[0] === 0x25 &&
    bytes[1] === 0x50 &&
    bytes[2] === 0x44 &&
    bytes[3] === 0x46
  );
}

/** The start of the page's text, read as Latin-1 from its bytes when it was not decoded: the markers are ASCII. */
function head(page: PageKindInput): string {
  if (page.text !== undefined) return page.text.slice(0, HEAD);
  if (!page.body) return '';
  return Buffer.from(page.body.buffer, page.body.byteOffset, Math.min(page.body.byteLength, HEAD)).toString('latin1');
}

/** What `pageKind` reads of a page. */
export interface PageKindInput {
  contentType: string;
  text?: string | undefined;
  body?: Uint8Array | undefined;
  /** The body is text not decoded yet. */
  undecoded: boolean;
  /**
   * The file's name (`fileNameOf`: its `Content-Disposition`, else its URL's): it names CSV and TSV served under a
   * generic type.
   */
  fileName?: string | undefined;
}

/**
 * What a fetched page is, by its content type and first bytes: a PDF (by its `%PDF` magic, or by type unless its
 * bytes are another document's), a document (Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, an image: by
 * signature; CSV, TSV: by type, or by the file's name under a generic type), JSON, XML
 * (unless it is an HTML document served as XML), other text, HTML (or no type), or something extraction does not
 * read (`unsupported`: binary content that is not a PDF).
 */
export function pageKind(page: PageKindInput): PageKind {
  const type = page.contentType;
  if (!page.undecoded && startsWithPdfMagic(page.body)) return 'pdf';
  // A file served as a PDF whose bytes are another document's (a Word file behind a .pdf link) is that document.
  if (isDocument(page)) return 'document';
  if (!page.undecoded && type === 'application/pdf') return 'pdf';
  if (page.text === undefined && !page.undecoded) return 'unsupported';
  if (isJsonType(type)) return 'json';
  if (isXmlType(type) && !/^\s*<!doctype html|<html[\s>]/i.test(head(page))) return 'xml';
  if (!isHtmlType(type) && type.startsWith('text/')) return 'text';
  return 'html';
}

/** The types whose text pages may be documents (CSV, TSV, RTF): other text is never looked at. */
const TEXT_DOCUMENT_TYPES =
  /^(text\/(csv|x-csv|comma-separated-values|tab-separated-values|tsv|rtf)|application\/(csv|rtf))$/;

/** A text page under a generic type whose file name says CSV or TSV. */
const namedTable = (page: { contentType: string; fileName?: string | undefined }) =>
  /^(text\/plain|application\/octet-stream|)$/.test(page.contentType) && /\.(csv|tsv)$/i.test(page.fileName ?? '');

/** How much of a page's text tells its format (signatures and the check that it is text). */
const DOCUMENT_HEAD = 4096;

/**
 * Whether a page is a document this package converts: binary content by its signature (images included; the
 * `image` parser decides in the worker), text by its type.
 */
function isDocument(page: Omit<PageKindInput, 'undecoded'>) {
  const fileName = page.fileName !== undefined ? { fileName: page.fileName } : {};
  if (page.text !== undefined) {
    if (!TEXT_DOCUMENT_TYPES.test(page.contentType) && !namedTable(page)) return false;
    return (
      documentFormat({
        bytes: new TextEncoder().encode(page.text.slice(0, DOCUMENT_HEAD)),
        contentType: page.contentType,
        ...fileName,
      }) !== undefined
    );
  }
  if (page.body === undefined) return false;
  return (
    documentFormat({ bytes: page.body, contentType: page.contentType, ...fileName }, { images: true }) !== undefined
  );
}
