import { describe, expect, it } from 'vitest';

import { answerInServerWords, inServerWords } from './operator-options.js';

describe("engine options in a server's answers", () => {
  it("tells SCRAPE_PAGE_TOO_COMPLEX's memory cap as the server's, by its serve flag", () => {
    // the message of extraction/pool.ts
    const message =
      'The page needed more than workers.maxMemoryMb (512 MiB) of memory to extract: its worker thread was stopped ' +
      'and replaced. Raise `workers.maxMemoryMb` for pages this large.';
    expect(inServerWords(message)).toBe(
      'The page needed more than the 512 MiB of memory to extract: its worker thread was stopped and replaced. Raise ' +
        "the server's memory for each extraction thread (`crawlkit serve --worker-memory`: its operator's setting, " +
        'which no request changes) for pages this large.',
    );
  });

  it('copies what it changes and leaves the rest as it is', () => {
    const doc = { warning: 'Raise `extractionBudgetMs` for pages this large.', markdown: '# A' };
    const plain = { warning: 'Nothing to tell.' };
    const body = { success: true, data: [doc, plain] };
    const out = answerInServerWords(body);
    expect(out.data[0]).toEqual({ ...doc, warning: expect.stringContaining('`crawlkit serve --extraction-budget`') });
    expect(out.data[1]).toBe(plain);
    expect(doc.warning).toBe('Raise `extractionBudgetMs` for pages this large.');
    const search = { success: true, data: { web: [{ url: 'https://a.test/', ...doc }, plain], news: [] } };
    const searched = answerInServerWords(search);
    expect(searched.data.web[0]!.warning).toContain('`crawlkit serve --extraction-budget`');
    expect(searched.data.web[1]).toBe(plain);
    expect(searched.data.news).toBe(search.data.news);
    expect(search.data.web[0]!.warning).toBe(doc.warning);
    const untouched = { success: true, data: { markdown: '# A' } };
    expect(answerInServerWords(untouched)).toBe(untouched);
  });
});
