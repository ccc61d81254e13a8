// Conversion of documents by format
export { convertDocument } from './convert.js';
export { detectFormat, documentFormat, imageType, isImage } from './detect.js';
export type { DocumentInput, RefusedFormat } from './detect.js';
export { DEFAULT_LIMITS } from './limits.js';
export type {
  ConvertedDocument,
  ConvertOptions,
  Converter,
  DocumentFormat,
  DocumentLimits,
  DocumentMetadata,
  OcrOptions,
} from './types.js';
// OCR of scanned PDF pages and images
export { cutPdfRead, ocrPdf, DEFAULT_OCR_MAX_PAGES, type PdfCutRead } from './ocr/pdf.js';
export type { OcrPdfOptions, OcrPdfResult } from './ocr/pdf.js';
export { stopOcr } from './ocr/engine.js';
export { DocumentError, isDocumentError } from './errors.js';
export type { DocumentErrorCode } from './errors.js';
