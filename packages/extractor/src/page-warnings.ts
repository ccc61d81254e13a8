/**
 * The warnings `extractPage` gives of the main content (`@crawlkit/extractor/page-warnings`): the main thread matches
 * them in a document's warnings without loading the extractor.
 */

/** Said when `onlyMainContent` found no main-content candidate and returns the whole page without its chrome. */
export const WHOLE_PAGE_WARNING =
  'No main content was found on this page: the whole page is returned (without navigation, header, footer and other page chrome).';

/** Said when the main content came out empty and the whole page is returned as it is. */
export const EMPTY_MAIN_WARNING =
  'The main content of this page came out empty: the whole page is returned (set onlyMainContent to false to always get it).';
