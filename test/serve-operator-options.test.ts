/**
 * The engine's messages name the engine option that would help (`extractionBudgetMs`): through `crawlkit serve` a v2
 * client read a name it cannot send. There they name the server's setting and the `crawlkit serve` flag its operator
 * sets; the function API keeps the option's name (test/document-budget.test.ts).
 */
import { readFileSync } from 'node:fs';

import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { writePdf } from '../packages/extractor/src/pdf/__fixtures__/write-pdf.ts';
import type { FixtureServer } from '../fixtures/server.ts';
import { startRouteSite } from './helpers/route-site.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';
const ods = readFileSync(new URL('../packages/documents/src/__fixtures__/report.ods', import.meta.url));
const SERVER_BUDGET =
  "the server's extraction budget (`crawlkit serve --extraction-budget`: its operator's setting, which no request " +
  'changes)';

let stack: ServeStack;
let site: FixtureServer;
let fc: Firecrawl;
let manual: Uint8Array;

beforeAll(async () => {
  // Enough pages that 1 ms cannot read them all (as test/document-budget.test.ts).
  const paragraph = { text: 'A paragraph of a long manual, one of several on each of its many pages. '.repeat(6) };
  manual = await writePdf(Array.from({ length: 200 }, () => ({ blocks: [paragraph, paragraph, paragraph] })));
  site = await startRouteSite({
    '/manual.pdf': (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end(manual),
  });
  stack = await startServeStack({ crawlkit: { extractionBudgetMs: 1 }, server: { apiKeys: [KEY] } });
  fc = new Firecrawl({ apiKey: KEY, apiUrl: stack.server.url });
});

afterAll(async () => {
  await stack?.close();
  await site?.close();
});

describe('an engine option in a message, through crawlkit serve and the official SDK', () => {
  it("an error names the server's setting and its serve flag, not extractionBudgetMs", async () => {
    const error = await fc.parse({ data: ods, filename: 'report.ods' }, { timeout: 120_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    const { message } = error as SdkError;
    // Before: "… (extractionBudgetMs: 1 ms); raise `extractionBudgetMs` (an engine option) for documents this large."
    expect(message).toContain(
      `Converting the ODS document took longer than the extraction budget (1 ms); raise ${SERVER_BUDGET} for ` +
        'documents this large.',
    );
    expect(message).not.toContain('extractionBudgetMs');
  });

  it("a document's warning says the same, in a scrape and in a batch's status", async () => {
    const url = `${site.url}/manual.pdf`;
    const scraped = await fc.scrape(url, { formats: ['markdown'], maxAge: 0, timeout: 120_000 });
    const rest = `The extraction budget (1 ms) ran out before the whole document was read: raise ${SERVER_BUDGET} to read the rest.`;
    // Before: "The extraction budget (extractionBudgetMs: 1 ms) … raise `extractionBudgetMs` to read the rest."
    expect(scraped.warning).toContain(rest);
    const batch = await fc.batchScrape([url], { options: { formats: ['markdown'], maxAge: 0 }, pollInterval: 1 });
    expect(batch.data.map((doc) => doc.warning)).toEqual([expect.stringContaining(rest)]);
    expect(JSON.stringify(batch)).not.toContain('extractionBudgetMs');
  });
});
