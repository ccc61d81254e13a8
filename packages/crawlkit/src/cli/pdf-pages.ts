/** The flag that sets the `maxPages` of the `pdf` parser, for the commands that convert PDFs. */
export const PDF_MAX_PAGES_FLAG = {
  flags: '--pdf-max-pages <n>',
  description: "PDF pages read at most (the pdf parser's maxPages; default 1000, at most 10000)",
};

/**
 * `parsers` with its `pdf` entry reading up to `maxPages` pages: `'pdf'` becomes `{ type: 'pdf', maxPages }`, an
 * object keeps its other fields, and a list without one gets it. `defaults` stands for `parsers` not given. The value
 * is not checked here: the API refuses a bad one, told as the flag.
 */
export function withPdfMaxPages(parsers: unknown, defaults: unknown[], maxPages: number | string): unknown[] {
  const list = Array.isArray(parsers) ? (parsers as unknown[]) : defaults;
  const isPdf = (p: unknown) =>
    p === 'pdf' || (typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'pdf');
  const set = list.map((p) => (isPdf(p) ? { ...(typeof p === 'object' ? p : { type: 'pdf' }), maxPages } : p));
  return list.some(isPdf) ? set : [...set, { type: 'pdf', maxPages }];
}

/** The flag's text as the body's value: a number when numeric, else the text (which the API then refuses). */
export function pdfMaxPagesValue(text: string): number | string {
  return /^\d+$/.test(text.trim()) ? Number(text) : text;
}
