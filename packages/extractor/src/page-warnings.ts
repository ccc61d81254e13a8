/**
 * The warnings `extractPage` gives of the main content (`@crawlkit/extractor/page-warnings`), each with a stable code:
 * a reader (the main thread, which does not load the extractor) filters them by code, never by their text.
 */

/** The text of each page warning, by its code. */
export const PAGE_WARNINGS = {
  /** `onlyMainContent` found no main-content candidate and returns the whole page without its chrome. */
  NO_MAIN_CONTENT:
    'No main content was found on this page: the whole page is returned (without navigation, header, footer and other page chrome).',
  /** The main content came out empty and the whole page is returned as it is. */
  EMPTY_MAIN_CONTENT:
    'The main content of this page came out empty: the whole page is returned (set onlyMainContent to false to always get it).',
  /**
   * The page has little text of its own and shows a frame: its content is likely the frame's document, which a scrape
   * does not fetch. The frames' URLs follow the text (`frameWarning`).
   */
  CONTENT_IN_FRAME:
    "This page has little text of its own and shows a frame (an <iframe>): its content is likely the frame's page, which a scrape does not fetch. Scrape the frame's URL to read it:",
} as const;

/** The code of a page warning. */
export type PageWarningCode = keyof typeof PAGE_WARNINGS;

/** A page warning: its code, and its text as the document's `warning` says it. */
export interface PageWarning {
  readonly code: PageWarningCode;
  readonly message: string;
}

/** One warning of an extraction: a coded page warning, or the plain text of any other (a selector matching nothing). */
export type ExtractionWarning = string | PageWarning;

/** Where a helper adds the text of its warnings: a plain list, or an extraction's (`ExtractionWarning[]`). */
export type WarningSink = Pick<string[], 'push'>;

/** The page warning of `code`. */
export function pageWarning(code: PageWarningCode): PageWarning {
  return { code, message: PAGE_WARNINGS[code] };
}

/** The text a document's `warning` says for `warning` (any coded warning: its `message`). */
export function warningText(warning: string | { readonly message: string }): string {
  return typeof warning === 'string' ? warning : warning.message;
}

/** `CONTENT_IN_FRAME`'s warning, naming `frames` (already written as a list: `namedFrames`). */
export function frameWarning(frames: string): PageWarning {
  return { code: 'CONTENT_IN_FRAME', message: `${PAGE_WARNINGS.CONTENT_IN_FRAME} ${frames}` };
}

/** Whether `warning` is the page warning of `code`. */
export function isPageWarning(warning: ExtractionWarning, code: PageWarningCode): boolean {
  return typeof warning !== 'string' && warning.code === code;
}

/** Said when `onlyMainContent` found no main-content candidate (`NO_MAIN_CONTENT`'s text). */
export const WHOLE_PAGE_WARNING = PAGE_WARNINGS.NO_MAIN_CONTENT;

/** Said when the main content came out empty (`EMPTY_MAIN_CONTENT`'s text). */
export const EMPTY_MAIN_WARNING = PAGE_WARNINGS.EMPTY_MAIN_CONTENT;
