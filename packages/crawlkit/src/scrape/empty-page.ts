/**
 * The note of a page that answered 2xx with a document holding no text: its markdown (and a summary or json read
 * from it) is empty, and without a word a user (or a crawl's RAG index) cannot tell an empty page from a scrape that
 * lost it. Said only when nothing else
 * already explains the page (a client-rendered shell fetched without a browser, a blocked or cut page): `warnings`
 * are the notes the page has so far.
 */
export function emptyPageNote(
  status: number,
  engine: string | undefined,
  markdown: string | undefined,
  warnings: readonly unknown[],
): string | undefined {
  if (markdown === undefined || markdown.trim() !== '' || status < 200 || status > 299 || warnings.length > 0) {
    return undefined;
  }
  return engine === 'browser'
    ? 'The page has no text: the page as the browser showed it holds nothing to convert.'
    : 'The page has no text: its HTML holds nothing to convert.';
}
