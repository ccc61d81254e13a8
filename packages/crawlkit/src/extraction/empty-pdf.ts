/**
 * The warning of a PDF that gave no text at all: every page parsed without a text layer, and (in `auto` and `ocr`
 * modes) nothing legible by OCR either. Without it an empty `markdown` reads as crawlkit failing, not as the document
 * being blank or scanned; the pages are billed as upstream bills them (one credit a page).
 */
export function emptyPdfWarning(
  pdf: { markdown: string; numPages: number; timedOut?: boolean; ocrPages?: number },
  mode: 'fast' | 'auto' | 'ocr',
): string | undefined {
  // a cut or skipped OCR has its own warning, which says what was not read
  if (pdf.markdown.trim() !== '' || pdf.numPages === 0 || pdf.timedOut) return undefined;
  const pages = pdf.numPages === 1 ? 'its one parsed page' : `its ${pdf.numPages} parsed pages`;
  if (mode === 'fast') {
    return (
      `The PDF has no text on ${pages}: none has a text layer (a blank or scanned document), and mode 'fast' reads ` +
      "no page by OCR; use parsers: [{ type: 'pdf', mode: 'auto' }] to read scanned pages."
    );
  }
  if (!pdf.ocrPages) return undefined;
  return (
    `The PDF has no text on ${pages}, in a text layer nor by OCR (${pdf.ocrPages} read): a blank document, or ` +
    'images without legible text.'
  );
}
