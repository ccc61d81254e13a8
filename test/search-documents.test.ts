/**
 * Search over documents a site serves (real files from the npm writers, on 127.0.0.1): a scraped Word file is found
 * by the words of its body and of its footnotes, a PDF by its pages' text, and each result names the file.
 */
import type { ServerResponse } from 'node:http';

import type { LocalResult } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { makeDocx } from '../packages/documents/src/__fixtures__/writers.ts';
import { makePdf } from '../fixtures/make-pdf.ts';
import { startFixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const serve = (res: ServerResponse, type: string, body: Uint8Array) => {
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
};

const env = useFixtureEngine({
  server: async () => {
    const docx = await makeDocx();
    const pdf = makePdf('Harbor manual', [['The lighthouse keeper manual'], ['Chapter two on buoys']]);
    return startFixtureServer({
      routes: {
        '/files/report.docx': (_req, res) => serve(res, 'application/octet-stream', docx),
        '/files/manual.pdf': (_req, res) => serve(res, 'application/pdf', pdf),
      },
    });
  },
  crawlkit: (dir) => ({ storeDir: dir, engine: 'http' }),
});

const urls = async (query: string) =>
  ((ok(await env.ck.search({ query })).data.web ?? []) as LocalResult[]).map((r) => new URL(r.url).pathname);

describe('search over scraped documents', () => {
  it("finds a Word file by its body and by its footnote's text", async () => {
    ok(await env.ck.scrape({ url: `${env.server.url}/files/report.docx` }));
    expect(await urls('"North doubled"')).toEqual(['/files/report.docx']);
    expect(await urls('unaudited')).toEqual(['/files/report.docx']);
  });

  it("finds a PDF by a later page's text, titled by the file", async () => {
    ok(await env.ck.scrape({ url: `${env.server.url}/files/manual.pdf` }));
    const answer = ok(await env.ck.search({ query: 'buoys' }));
    const [hit] = answer.data.web as LocalResult[];
    expect(new URL(hit!.url).pathname).toBe('/files/manual.pdf');
    expect(hit!.title).toBe('Harbor manual');
  });
});
