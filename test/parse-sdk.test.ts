/**
 * `POST /v2/parse` driven by the official JS SDK's `parse()` (a multipart upload), unchanged, against a real
 * `crawlkit serve` stack; and the same route over raw HTTP for what the SDK checks before sending.
 */
import { readFileSync } from 'node:fs';

import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  makeDocx,
  makePptx,
  makeXlsx,
  SCREENSHOT_WORDS,
  screenshotPng,
} from '../packages/documents/src/__fixtures__/writers.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';
const golden = (format: string) =>
  readFileSync(new URL(`../packages/documents/src/__fixtures__/golden/${format}.md`, import.meta.url), 'utf8').trim();

let stack: ServeStack;
let fc: Firecrawl;

beforeAll(async () => {
  stack = await startServeStack({
    crawlkit: { extractionBudgetMs: 60_000 },
    server: { apiKeys: [KEY], parseFileLimit: 256 * 1024 },
  });
  fc = new Firecrawl({ apiKey: KEY, apiUrl: stack.server.url });
});

afterAll(async () => {
  await stack?.close();
});

describe('SDK parse() against crawlkit serve', () => {
  it('uploads a DOCX, an XLSX and a PPTX and gets their golden markdown', async () => {
    const docx = await fc.parse({ data: Buffer.from(await makeDocx()), filename: 'report.docx' });
    expect(docx.markdown!.trim()).toBe(golden('docx'));
    expect(docx.metadata).toMatchObject({
      title: 'Quarterly Report',
      description: 'Sample report',
      sourceURL: 'report.docx',
      creditsUsed: 1,
    });
    const xlsx = await fc.parse(
      { data: await makeXlsx(), filename: 'report.xlsx' },
      { formats: ['markdown', 'html'], parsers: ['pdf'] },
    );
    expect(xlsx.markdown!.trim()).toBe(golden('xlsx'));
    expect(xlsx.html).toMatch(/<table/);
    expect(xlsx.metadata).toMatchObject({ numSheets: 2 });
    const pptx = await fc.parse({
      data: new Blob([Buffer.from(await makePptx())]),
      filename: 'deck.pptx',
      contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    });
    expect(pptx.markdown!.trim()).toBe(golden('pptx'));
  });

  it('reads an uploaded screenshot by OCR', async () => {
    const doc = await fc.parse({ data: Buffer.from(screenshotPng()), filename: 'shot.png', contentType: 'image/png' });
    for (const words of SCREENSHOT_WORDS) expect(doc.markdown).toContain(words);
  });

  it('refuses a file past parseFileLimit with 413 PAYLOAD_TOO_LARGE', async () => {
    const big = new Uint8Array(300 * 1024).fill(0x41);
    const error = await fc.parse({ data: Buffer.from(big), filename: 'big.csv' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    // sized as ck.parse() sizes it (it read "0.3 MiB", the limit of 256 KiB rounded)
    expect((error as Error).message).toMatch(/larger than 262144 bytes \(parseFileLimit/);
  });

  it('answers a request that is not an upload, or has no file, with 400 BAD_REQUEST', async () => {
    const headers = { authorization: `Bearer ${KEY}` };
    const json = await fetch(`${stack.server.url}/v2/parse`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ code: 'BAD_REQUEST', error: expect.stringMatching(/multipart/) });
    const form = new FormData();
    form.append('options', '{}');
    const noFile = await fetch(`${stack.server.url}/v2/parse`, { method: 'POST', headers, body: form });
    expect(noFile.status).toBe(400);
    expect(await noFile.json()).toMatchObject({ code: 'BAD_REQUEST', error: expect.stringMatching(/no `file` part/) });
    const badOptions = new FormData();
    badOptions.append('options', '{not json');
    badOptions.append('file', new Blob(['a,b\n1,2\n']), 'x.csv');
    const bad = await fetch(`${stack.server.url}/v2/parse`, { method: 'POST', headers, body: badOptions });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'BAD_REQUEST', error: expect.stringMatching(/not valid JSON/) });
  });
});
