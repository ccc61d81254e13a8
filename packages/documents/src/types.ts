/** The formats this package converts. */
export type DocumentFormat =
  'docx' | 'doc' | 'xlsx' | 'ods' | 'pptx' | 'odp' | 'odt' | 'rtf' | 'epub' | 'csv' | 'tsv' | 'image';

/** Document properties, as the file states them (absent when it does not). */
export interface DocumentMetadata {
  title?: string;
  author?: string;
  /** The subject a writer stored (else its description or comments), under the v2 name a web page's has. */
  description?: string;
  /** Keywords, comma-separated as the v2 metadata of a web page. */
  keywords?: string;
  /** The language the document declares (a BCP 47 tag such as `en-GB`). */
  language?: string;
  /** ISO 8601. */
  created?: string;
  /** ISO 8601. */
  modified?: string;
  /** Pages the file states it has (Word, OpenDocument text), or pages OCR'd. */
  numPages?: number;
  numSlides?: number;
  numSheets?: number;
  /** Chapters of an EPUB, in spine order. */
  numChapters?: number;
  /** Rows of a CSV or TSV file, header included. */
  numRows?: number;
  /**
   * Revisions a Word file tracks that nobody accepted or rejected (insertions, deletions, moves in its body): the
   * markdown reads them as accepted. Absent when there are none.
   */
  trackedChanges?: number;
}

/** A converted document. */
export interface ConvertedDocument {
  format: DocumentFormat;
  markdown: string;
  /** HTML of the document, when asked (`ConvertOptions.html`). */
  html?: string;
  metadata: DocumentMetadata;
  /**
   * Pages billed per upstream's per-page rule: the pages of a paged format (the count a Word or OpenDocument text
   * file states, pages OCR'd); absent for slides, sheets, chapters and tables, which are billed as one document.
   */
  pages?: number;
  /** What was left out, and why (caps, time budget). */
  warnings: string[];
  /** True when `deadline` passed before the whole document was converted (one of the `warnings` says what was). */
  timedOut?: boolean;
}

/** Caps on what one document may cost. Every default is sized for ordinary office files. */
export interface DocumentLimits {
  /**
   * Entries a zip-based document (DOCX, XLSX, PPTX, OpenDocument, EPUB) may hold.
   * @default 10000
   */
  maxZipEntries?: number;
  /**
   * Bytes a zip-based document may inflate to, counted while inflating.
   * @default 209715200 (200 MiB)
   */
  maxExpandedBytes?: number;
  /**
   * Inflated bytes per byte of the file, checked while inflating once 16 MiB have come out.
   * @default 100
   */
  maxExpansionRatio?: number;
  /**
   * XML elements read from one document's parts.
   * @default 1000000
   */
  maxXmlElements?: number;
  /**
   * Table cells materialized from one document (all sheets together); past it the rest is left out, with a warning.
   * @default 200000
   */
  maxTableCells?: number;
  /**
   * Cells a spreadsheet may hold, empty ones included, counted before it is read (reading costs about 8 µs a cell,
   * empty or not); more is refused.
   * @default 500000
   */
  maxSheetCells?: number;
  /**
   * Slides converted; past it the rest is left out, with a warning.
   * @default 1000
   */
  maxSlides?: number;
  /**
   * Entries of an EPUB's spine (its reading order). A spine longer than this is refused: one that lists its
   * chapters over and over (a looping spine) costs officeparser a pass per entry.
   * @default 2000
   */
  maxSpineItems?: number;
  /**
   * Rows of a CSV or TSV file converted; past it the rest is left out, with a warning.
   * @default 100000
   */
  maxRows?: number;
  /**
   * Characters of markdown a document may produce; past it the markdown is cut, with a warning.
   * @default 50000000
   */
  maxMarkdownChars?: number;
}

/** How the image parser and PDF OCR read pages. */
export interface OcrOptions {
  /**
   * Pages (PDF pages or images) OCR'd per document; past it the rest is left out, with a warning.
   * @default 20
   */
  maxPages?: number;
  /** Epoch ms after which no further page is OCR'd, and the page being read is abandoned. */
  deadline?: number;
}

export interface ConvertOptions extends DocumentLimits {
  /** Also return the document as HTML. @default false */
  html?: boolean;
  /** Epoch ms past which the conversion stops, with what it has and a warning where it can, else an error. */
  deadline?: number;
  /** Whether images are OCR'd (the `image` parser): off, an image is an unsupported file. @default false */
  images?: boolean;
  ocr?: OcrOptions;
}

/** One format's converter: recognizes its files and converts them. */
export interface Converter {
  readonly format: DocumentFormat;
  convert(bytes: Uint8Array, options: ConvertOptions): Promise<ConvertedDocument>;
}
