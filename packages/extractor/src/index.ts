// Markdown converter
export { htmlToMarkdown, MarkdownBudgetError, isMarkdownBudgetError, withCents } from './markdown/index.js';
export type { MarkdownOptions, MarkdownBudgetErrorCode } from './markdown/index.js';
// Main-content extraction
export { extractMainContent, findMainContent } from './content/index.js';
export type { KeepRule, MainContent, MainContentOptions } from './content/index.js';
// Page pipeline: parsing, cleaning, links, images, metadata, PDF
export { extractPage } from './page.js';
export type { AttributeSelector, AttributeValues } from './attributes.js';
export type { ExtractPageOptions, ExtractedPage } from './page.js';
export { extractMetadata, type MetadataOptions } from './metadata.js';
export type { PageMetadata } from './metadata.js';
export {
  cutPdf,
  DEFAULT_PDF_MAX_DECODED_BYTES,
  DEFAULT_PDF_MAX_PAGES,
  PDF_MAX_PAGES_LIMIT,
  extractPdf,
  pageToMarkdown,
} from './pdf/extract-pdf.js';
export { dropRunningLines } from './pdf/page-furniture.js';
export { ocrPagesToMarkdown } from './pdf/ocr-lines.js';
export { loadPdfParse } from './pdf/pdfjs-worker.js';
export type { OcrLine } from './pdf/ocr-lines.js';
export { pdfMarkdownToHtml } from './pdf/markdown-html.js';
export { joinPages } from './pdf/structure.js';
export type { OcrPageRead, PdfContent, PdfHead, PdfOptions, PdfRead, PdfTextPass } from './pdf/extract-pdf.js';
export type { Line as PdfLine } from './pdf/layout.js';
export { parseHtml } from './dom/parse.js';
export { htmlToPlainText } from './plain-text.js';
export type { PlainText, PlainTextOptions } from './plain-text.js';
export { ExtractorError, isExtractorError } from './errors.js';
export type { ExtractorErrorCode } from './errors.js';
// Change tracking: comparison rule and git-style diff
export { comparableText, diffMarkdown, isSameText } from './diff/index.js';
export type { DiffChange, DiffChunk, DiffFile, MarkdownDiff, MarkdownDiffOptions } from './diff/index.js';
// Branding: in-page collector and profile builder
export { BRANDING_SCRIPT, buildBranding, cleanFontName, parseFontStack } from './branding/index.js';
export type {
  BrandingProfile,
  BrandingSnapshot,
  BrandingColors,
  BrandingFont,
  BrandingTypography,
  BrandingSpacing,
  BrandingComponents,
  BrandingButton,
  BrandingInput,
  BrandingImages,
  BrandingPersonality,
} from './branding/index.js';
// Explain: every block of a page with the rule that kept or dropped it
export { explainPage } from './explain/index.js';
export type { ExplainedBlock, ExplainedPage, ExplainKeepRule, ExplainOptions, Suggestion } from './explain/index.js';
export { DROP_RULES } from './content/index.js';
export type { DropRule, DropRuleInfo } from './content/index.js';
