import { describe, expect, it } from 'vitest';

import { pageWarning } from '@crawlkit/extractor/page-warnings';

import { outOfTimeAttempts } from '../jobs/page-attempts.js';
import { errorPageNote, errorPageWarning, joinWarnings, withAttempts } from './error-page.js';

describe("an error answer's note", () => {
  it('names the status and its reason, and nothing below 400', () => {
    expect(errorPageNote(404)).toBe("The page answered 404 Not Found; the document is the server's error page.");
    // a status Node names none for (not 590-599: proxy-chain, loaded by other tests in this thread, names those)
    expect(errorPageNote(589)).toBe("The page answered 589; the document is the server's error page.");
    expect(errorPageNote(302)).toBeUndefined();
    expect(errorPageWarning(404)).toEqual({ code: 'ERROR_PAGE', message: errorPageNote(404) });
    expect(errorPageWarning(302)).toBeUndefined();
  });

  it('says in the same sentence how many asks had the answer, the rest of the warning after it', () => {
    const parts = [errorPageWarning(429)!, pageWarning('EMPTY_MAIN_CONTENT')];
    expect(joinWarnings(parts)).toBe(`${errorPageNote(429)} ${pageWarning('EMPTY_MAIN_CONTENT').message}`);
    expect(withAttempts(parts, 429, '4 attempts over 7.2 s')).toBe(
      "The page answered 429 Too Many Requests to each of 4 attempts over 7.2 s; the document is the server's " +
        `error page, its last answer. ${pageWarning('EMPTY_MAIN_CONTENT').message}`,
    );
    const time = { timeoutMs: 30_000, spentMs: 0 };
    expect(withAttempts([], 503, outOfTimeAttempts(time, 3))).toBe(
      "The page answered 503 Service Unavailable to each of 3 attempt(s), which took the page's `timeout` of 30000 " +
        "ms and left no time to ask again; the document is the server's error page, its last answer.",
    );
  });

  it('finds the note by its code, not by where it stands or how it reads', () => {
    // Before (the joined text searched with startsWith): a note not first was kept and a second one put before it.
    expect(
      withAttempts(['Selector `.job` matched nothing.', errorPageWarning(503)!], 503, '2 attempts over 1.0 s'),
    ).toBe(
      "The page answered 503 Service Unavailable to each of 2 attempts over 1.0 s; the document is the server's " +
        'error page, its last answer. Selector `.job` matched nothing.',
    );
    // A part that only reads like the note is not the note.
    const lookalike = errorPageNote(503)!;
    expect(withAttempts([lookalike], 503, '2 attempts over 1.0 s')).toBe(
      `${errorPageNote(503, '2 attempts over 1.0 s')} ${lookalike}`,
    );
  });
});
