import { describe, expect, it } from 'vitest';

import { outOfTimeAttempts } from '../jobs/page-attempts.js';
import { errorPageNote, withAttempts } from './error-page.js';

describe("an error answer's note", () => {
  it('names the status and its reason, and nothing below 400', () => {
    expect(errorPageNote(404)).toBe("The page answered 404 Not Found; the document is the server's error page.");
    // a status Node names none for (not 590-599: proxy-chain, loaded by other tests in this thread, names those)
    expect(errorPageNote(589)).toBe("The page answered 589; the document is the server's error page.");
    expect(errorPageNote(302)).toBeUndefined();
  });

  it('says in the same sentence how many asks had the answer, the rest of the warning after it', () => {
    const warning = `${errorPageNote(429)} No main content was found on this page.`;
    expect(withAttempts(warning, 429, '4 attempts over 7.2 s')).toBe(
      "The page answered 429 Too Many Requests to each of 4 attempts over 7.2 s; the document is the server's " +
        'error page, its last answer. No main content was found on this page.',
    );
    const time = { timeoutMs: 30_000, spentMs: 0 };
    expect(withAttempts(undefined, 503, outOfTimeAttempts(time, 3))).toBe(
      "The page answered 503 Service Unavailable to each of 3 attempt(s), which took the page's `timeout` of 30000 " +
        "ms and left no time to ask again; the document is the server's error page, its last answer.",
    );
  });
});
