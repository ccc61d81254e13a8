/**
 * Whether a page that answered 2xx says it is not there: a soft 404, the way single-page apps, CMSs behind caches and
 * catch-all routes answer an unknown path. Read from the page's title, cut at its separators (`Page not found |
 * Docs`): a part of it must be one of the phrases below, whole, so a title that only mentions them ("Why 404 pages
 * matter") is not one. A short page's text is read too, for a sentence saying its thing is gone ("This job is no
 * longer available."): a closed posting or a sold-out listing keeps its title and answers 200.
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

/** What a page stands for, as a sentence saying it is gone names it: kinds of things, never a site's name. */
const GONE_SUBJECTS = [
  'job',
  'job posting',
  'job listing',
  'job offer',
  'position',
  'posting',
  'listing',
  'vacancy',
  'opening',
  'role',
  'page',
  'item',
  'product',
  'offer',
  'event',
  'ad',
  'advert',
];

/** What became of it (each holds a word of `STATE_WORD`: a test reads every state). */
export const GONE_STATES = [
  'is no longer available',
  'is no longer open',
  'is no longer active',
  'is no longer accepting applications',
  'has been filled',
  'has expired',
  'has been removed',
  'has been closed',
  'is closed',
  'no longer exists',
];

/**
 * A sentence saying the page's thing is gone, whole (as `phraseOf` writes it): "(Sorry,) this|the <subject> <state>",
 * or "(We are) no longer accepting applications (for this job)".
 */
const GONE_SENTENCE = new RegExp(
  `^(?:sorry )?(?:this|the) (?:${GONE_SUBJECTS.join('|')}) (?:${GONE_STATES.join('|')})$` +
    '|^(?:we are |were )?no longer accepting applications(?: for this (?:job|position|role))?$',
);

/** A word every sentence `GONE_SENTENCE` reads holds: a text without one is not read (a tenth of the time). */
const STATE_WORD = /longer|expired|filled|removed|closed/i;

/**
 * The most words a page's main text has for its sentences to be read for one saying the page's thing is gone: a
 * closed posting keeps its title, place and a line or two; an article quoting the phrase is longer.
 * @default 100
 */
const SHORT_TEXT_WORDS = 100;

/** Markdown longer than this holds more than `SHORT_TEXT_WORDS` words, whatever its links' addresses. */
const SHORT_TEXT_CHARS = 20_000;

/**
 * The sentence of a short page's main text (markdown) saying its thing is gone, as written; undefined when the text
 * is longer than `SHORT_TEXT_WORDS` or no sentence is one. A quoted line (`>`) and a sentence that only mentions the
 * phrase ("The banner read: this job has expired") are not one.
 */
export function goneSentence(markdown: string): string | undefined {
  // every scrape asks: a page far longer than a short text's words and links is not read at all
  if (markdown.length > SHORT_TEXT_CHARS) return undefined;
  // cache hits of one page ask again of the same text (comparing a string with itself is free)
  if (markdown !== lastRead.text) lastRead = { text: markdown, gone: readGone(markdown) };
  return lastRead.gone;
}

/** The last text `goneSentence` read, and its answer. */
let lastRead: { text: string; gone: string | undefined } = { text: '', gone: undefined };

function readGone(markdown: string): string | undefined {
  if (!STATE_WORD.test(markdown)) return undefined;
  const text = markdown.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  if (wordsPast(text, SHORT_TEXT_WORDS)) return undefined;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('>')) continue;
    for (const sentence of line.split(/(?<=[.!?])\s+/)) {
      if (GONE_SENTENCE.test(phraseOf(sentence))) return sentence.replace(/^[\s#*_>-]+|[\s*_]+$/g, '');
    }
  }
  return undefined;
}

/**
 * Whether `text` has more than `most` words (runs of non-space holding a letter or a digit). It stops at the first
 * word past `most`: every scrape on the main thread asks, of markdown up to `SHORT_TEXT_CHARS` long.
 */
function wordsPast(text: string, most: number): boolean {
  let words = 0;
  for (const [run] of text.matchAll(/\S+/g)) {
    if (WORDLIKE.test(run) && ++words > most) return true;
  }
  return false;
}

const WORDLIKE = /[\p{L}\p{N}]/u;

/** Whether `title` reads as a not-found page's. */
export function titleSaysNotFound(title: string): boolean {
  return title.split(TITLE_PARTS).some((part) => NOT_FOUND_TITLES.has(phraseOf(part)));
}

/**
 * The note for a page that answered `status` (2xx) with a title that says it is not found, or a short main text
 * (`markdown`) with a sentence saying its thing is gone; undefined for any other page. A crawl otherwise stores such
 * pages as pages, and a RAG index takes "Page not found" for content.
 */
export function softNotFoundNote(status: number, title: unknown, markdown?: string): string | undefined {
  if (status < 200 || status > 299) return undefined;
  if (typeof title === 'string' && titleSaysNotFound(title)) {
    const shown = title.length > 120 ? `${title.slice(0, 120)}…` : title;
    return (
      `The page answered ${status} but its title, "${shown.trim()}", says it was not found: a soft 404, most likely ` +
      '(the address is wrong, or the site answers every unknown path with this page).'
    );
  }
  const gone = markdown === undefined ? undefined : goneSentence(markdown);
  if (gone === undefined) return undefined;
  return (
    `The page answered ${status} but its text, "${gone}", says what it was is gone: a soft 404, most likely (a ` +
    'closed posting or a removed listing the site still answers).'
  );
}
