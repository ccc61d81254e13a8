/**
 * Whether a page that answered 2xx says it is not there: a soft 404, the way single-page apps, CMSs behind caches and
 * catch-all routes answer an unknown path. Read from the page's title, cut at its separators (`Page not found |
 * Docs`): a part of it must be one of the phrases below, whole, so a title that only mentions them ("Why 404 pages
 * matter") is not one.
 */

/** What a not-found page calls itself, in its title (lower case, punctuation dropped), one phrase a line. */
const NOT_FOUND_TITLES = new Set([
  // English, and the forms CMSs and frameworks write
  '404',
  'error 404',
  '404 error',
  '404 not found',
  'error 404 not found',
  '404 page not found',
  'not found',
  'page not found',
  'file not found',
  'document not found',
  'resource not found',
  'error page not found',
  'oops page not found',
  'this page could not be found',
  'this page does not exist',
  'this page doesnt exist',
  'page does not exist',
  'oops that page cant be found',
  'sorry that page cant be found',
  'nothing found',
  'page missing',
  // German, French, Spanish, Italian, Portuguese, Dutch, Polish, Japanese, Chinese
  'seite nicht gefunden',
  'page introuvable',
  'page non trouvée',
  'página no encontrada',
  'pagina non trovata',
  'página não encontrada',
  'pagina niet gevonden',
  'nie znaleziono strony',
  'ページが見つかりません',
  '页面未找到',
  '找不到页面',
]);

/**
 * The separators a title puts between its parts (`Page not found – Site`, `404 | Docs`, `Docs :: 404`); not a colon,
 * which starts a subtitle (`Not found: a memoir`).
 */
const TITLE_PARTS = /\s+[|–—·•»]\s+|\s+-\s+|\s*::\s*/;

/** A part of a title as the table writes it: lower case, apostrophes and punctuation dropped, spaces single. */
function phraseOf(part: string): string {
  return part
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether `title` reads as a not-found page's. */
export function titleSaysNotFound(title: string): boolean {
  return title.split(TITLE_PARTS).some((part) => NOT_FOUND_TITLES.has(phraseOf(part)));
}

/**
 * The note for a page that answered `status` (2xx) with a title that says it is not found; undefined for any other
 * page. A crawl otherwise stores such pages as pages, and a RAG index takes "Page not found" for content.
 */
export function softNotFoundNote(status: number, title: unknown): string | undefined {
  if (status < 200 || status > 299 || typeof title !== 'string' || !titleSaysNotFound(title)) return undefined;
  const shown = title.length > 120 ? `${title.slice(0, 120)}…` : title;
  return (
    `The page answered ${status} but its title, "${shown.trim()}", says it was not found: a soft 404, most likely ` +
    '(the address is wrong, or the site answers every unknown path with this page).'
  );
}
