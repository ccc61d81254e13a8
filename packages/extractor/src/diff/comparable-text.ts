import { isSessionParam, PATH_SESSION } from '@crawlkit/options/session-params';

/**
 * The comparison rule of change tracking. Two versions of a page are the same when their comparable texts are
 * equal; the comparable text is the markdown with what is not content taken out:
 *
 * 1. `[iframe](...)` links are dropped: embeds carry per-load URLs.
 * 2. Query strings and fragments of image URLs are dropped (`![logo](/logo.png?v=1712)` → `![logo](/logo.png)`):
 *    cache busters and resizing parameters change on every deploy without the image changing.
 * 3. Session ids in link URLs are dropped (`viewtopic.php?t=1&sid=<32 hex digits>`, `;jsessionid=…`, `PHPSESSID`, the
 *    rule of `@crawlkit/options/session-params`): a forum or shop that writes one into every link for a visitor
 *    without its cookie writes a new one each visit, and every link of the page would change.
 * 4. On lines that label a timestamp ("Last updated", "Last active", "Modified", "Generated", "Rendered",
 *    "Retrieved", "As of", "Current time", "Page loaded"), dates, times, weekdays, relative times ("5 minutes ago",
 *    "2 hours, 5 minutes ago", "just now") and the time the page took ("Page generated in 0.12 seconds") are
 *    dropped. Dates anywhere else are content (an event moved to another day is a change).
 * 5. Whitespace is ignored: every run of spaces, tabs and line breaks counts as one space, and leading and trailing
 *    whitespace does not count. Re-wrapped paragraphs or re-padded tables are the same text.
 *
 * Unlike upstream, which compares the sorted characters of both versions, the order of the text counts: reordered
 * paragraphs or a swapped pair of prices are a change.
 */
export function comparableText(markdown: string): string {
  return markdown
    .replace(/\[iframe\]\([^)]*\)/gi, ' ')
    .replace(IMAGE, (_match, alt: string, url: string, title: string | undefined) => {
      return `![${alt}](${url.replace(/[?#].*$/, '')}${title ?? ''})`;
    })
    .replace(LINK_URL, (_match, url: string) => `](${withoutSessionIds(url)}`)
    .split('\n')
    .map((line) => (TIMESTAMP_LABEL.test(line) ? stripTimestamps(line) : line))
    .join('\n')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether two markdown versions count as the same page text (see `comparableText`). */
export function isSameText(previous: string, current: string): boolean {
  return comparableText(previous) === comparableText(current);
}

// A link's or image's `](url`, with the URL up to the first space or closing parenthesis.
const LINK_URL = /\]\(\s*<?([^\s)>]+)/g;

/** `url` without its session-id query parameters and `;jsessionid=` path parameter. */
function withoutSessionIds(url: string): string {
  if (!url.includes('?') && !url.includes(';')) return url;
  const hashAt = url.indexOf('#');
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const [path = '', query] = (hashAt < 0 ? url : url.slice(0, hashAt)).split(/\?(.*)/s, 2);
  const params = query?.split('&').filter((part) => {
    const eq = part.indexOf('=');
    return eq < 0 || !isSessionParam(part.slice(0, eq), part.slice(eq + 1));
  });
  return `${path.replace(PATH_SESSION, '')}${params?.length ? `?${params.join('&')}` : ''}${hash}`;
}

// `![alt](url "title")`, with the URL up to the first space or closing parenthesis.
const IMAGE = /!\[([^\]]*)\]\(\s*<?([^\s)>]+)>?(\s+"[^"]*")?\s*\)/g;

const TIMESTAMP_LABEL =
  /\b(?:last[\s-]+(?:updated|modified|changed|edited|refreshed|checked|crawled|build|active|activity|seen)|updated(?:\s+(?:on|at))?|modified|generated|rendered|retrieved|fetched|as\s+of|current\s+(?:time|date)|page\s+(?:loaded|generated)|server\s+time|build\s+time)\b/i;

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
// Not a word's start: `months` is no Monday.
const WEEKDAY = '(?:mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?(?![a-z])\\.?,?';

/** One amount of time in a relative time: `5 minutes`, `an hour`, `a few seconds`. */
const RELATIVE_PART = '(?:\\d+|an?|one|a\\s+few)\\s+(?:second|sec|minute|min|hour|hr|day|week|month|year)s?';

const VOLATILE_PARTS = [
  // ISO 8601 date-times and dates: 2026-11-22T18:50:52.123Z, 2026-11-22
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g,
  // 22/11/2026, 11.22.26, 2026/11/22
  /\b\d{1,4}[/.]\d{1,2}[/.]\d{1,4}\b/g,
  // Nov 22, 2026 / 22 November 2026 / November 2026
  new RegExp(`\\b(?:\\d{1,2}(?:st|nd|rd|th)?\\s+)?${MONTH}(?:\\s+\\d{1,2}(?:st|nd|rd|th)?)?,?(?:\\s+\\d{4})?\\b`, 'gi'),
  new RegExp(`\\b${WEEKDAY}`, 'gi'),
  // 18:50, 6:50:52 pm, 18:50 UTC
  /\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[ap]\.?m\.?)?(?:\s*(?:utc|gmt|z|[a-z]{2,4}t|[+-]\d{2}:?\d{2}))?\b/gi,
  // 5 minutes ago, an hour ago, 2 hours, 5 minutes ago, 1 hour and 5 minutes ago, just now, yesterday, today
  // (at most 7 parts, years to seconds: unbounded, a long line of parts without "ago" took time quadratic in it)
  new RegExp(`\\b(?:${RELATIVE_PART}(?:\\s*,\\s*|\\s+)(?:and\\s+)?){0,6}${RELATIVE_PART}\\s+ago\\b`, 'gi'),
  /\b(?:just\s+now|yesterday|today|moments?\s+ago)\b/gi,
  // Unix timestamps (10 or 13 digits)
  /\b\d{10}(?:\d{3})?\b/g,
  // the time the page took: "Page generated in 0.12 seconds", "rendered in 67 ms"
  /\bin\s+\d+(?:[.,]\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?)\b/gi,
];

/**
 * Every volatile form in one pattern, so a labelled line is read once; where two forms start at one place, the
 * first listed wins.
 */
const VOLATILE = new RegExp(VOLATILE_PARTS.map((part) => `(?:${part.source})`).join('|'), 'gi');

function stripTimestamps(line: string): string {
  return line.replace(VOLATILE, ' ');
}
