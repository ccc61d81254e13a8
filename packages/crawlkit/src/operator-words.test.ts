import { describe, expect, it } from 'vitest';

import { answerInOperatorWords, inOperatorWords, storedDocumentInOperatorWords } from './operator-words.js';

// the message of extraction/pool.ts
const MEMORY =
  'The page needed more than workers.maxMemoryMb (512 MiB) of memory to extract: its worker thread was stopped and ' +
  'replaced. Raise `workers.maxMemoryMb` for pages this large.';

describe("engine options in the messages of a command's callers", () => {
  it("tells SCRAPE_PAGE_TOO_COMPLEX's memory cap as the server's, by its serve flag", () => {
    expect(inOperatorWords(MEMORY, 'serve')).toBe(
      'The page needed more than the 512 MiB of memory to extract: its worker thread was stopped and replaced. Raise ' +
        "the server's memory for each extraction thread (`crawlkit serve --worker-memory`: its operator's setting, " +
        'which no request changes) for pages this large.',
    );
  });

  it("tells the budget as the MCP server's to an agent, by crawlkit mcp's flag; the function API keeps the name", () => {
    const message = 'The extraction budget (extractionBudgetMs: 1 ms) ran out: raise `extractionBudgetMs` to read on.';
    expect(inOperatorWords(message, 'mcp')).toBe(
      "The extraction budget (1 ms) ran out: raise the MCP server's extraction budget (`crawlkit mcp " +
        "--extraction-budget`: its operator's setting, which no tool call changes) to read on.",
    );
    expect(inOperatorWords(message, 'engine')).toBe(message);
  });

  it('copies what it changes and leaves the rest as it is', () => {
    const doc = { warning: 'Raise `extractionBudgetMs` for pages this large.', markdown: '# A' };
    const plain = { warning: 'Nothing to tell.' };
    const body = { success: true, data: [doc, plain] };
    const out = answerInOperatorWords(body, 'serve');
    expect(out.data[0]).toEqual({ ...doc, warning: expect.stringContaining('`crawlkit serve --extraction-budget`') });
    expect(out.data[1]).toBe(plain);
    expect(doc.warning).toBe('Raise `extractionBudgetMs` for pages this large.');
    const search = { success: true, data: { web: [{ url: 'https://a.test/', ...doc }, plain], news: [] } };
    const searched = answerInOperatorWords(search, 'serve');
    expect(searched.data.web[0]!.warning).toContain('`crawlkit serve --extraction-budget`');
    expect(searched.data.web[1]).toBe(plain);
    expect(searched.data.news).toBe(search.data.news);
    expect(search.data.web[0]!.warning).toBe(doc.warning);
    const untouched = { success: true, data: { markdown: '# A' } };
    expect(answerInOperatorWords(untouched, 'serve')).toBe(untouched);
    expect(answerInOperatorWords(body, 'engine')).toBe(body);
  });

  it("rewords a stored document's warning, never its content", () => {
    // a page about crawlkit itself: its markdown names the option, and stays as written
    const markdown = 'Set `extractionBudgetMs` in `new Crawlkit()`.';
    const json = JSON.stringify({ markdown, warning: MEMORY });
    const told: unknown = JSON.parse(storedDocumentInOperatorWords(json, 'serve'));
    expect(told).toEqual({ markdown, warning: inOperatorWords(MEMORY, 'serve') });
    const content = JSON.stringify({ markdown });
    expect(storedDocumentInOperatorWords(content, 'serve')).toBe(content);
  });
});
