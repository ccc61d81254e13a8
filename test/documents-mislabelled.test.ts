/**
 * Documents served or uploaded under another document's type, as the README promises ("the format is read from the
 * file's signature, never from a name"): a Word file behind a `.pdf` link served as `application/pdf`, scraped over
 * HTTP and uploaded to `ck.parse` with that type, is read as the Word file it is; a file that is neither is still
 * told as a PDF that could not be parsed, and an empty one as empty. A CSV at a `.csv` URL served under a generic type (none, octet-stream,
 * text/plain, as object stores and raw file hosts serve them) is a table, as an upload's name makes it; so is one
 * behind a download link (`/download?id=7`) named by its `Content-Disposition` header.
 */
import type { ServerResponse } from 'node:http';

import { describe, expect, it } from 'vitest';

import { makeDocx } from '../packages/documents/src/__fixtures__/writers.ts';
import { startFixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

let docx: Uint8Array;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const CSV = 'Region,Sales\nNorth,120\nSouth,80\n';
const TABLE = '| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 80 |';
const serve = (res: ServerResponse, body: Uint8Array | string) => {
  res.writeHead(200, { 'content-type': 'application/pdf' });
  res.end(body);
};

const env = useFixtureEngine({
  server: async () => {
    docx = await makeDocx();
    return startFixtureServer({
      routes: {
        '/files/report.pdf': (_req, res) => serve(res, docx),
        '/files/broken.pdf': (_req, res) => serve(res, 'not a PDF, nor any document'),
        '/files/empty.docx': (_req, res) => {
          res.writeHead(200, { 'content-type': DOCX, 'content-length': 0 });
          res.end();
        },
        '/download': (_req, res, ctx) => {
          // a download link: the name is the header's only (`filename`, or RFC 5987's `filename*`)
          const disposition =
            ctx.url.searchParams.get('id') === '7'
              ? 'attachment; filename="sales.csv"'
              : 'attachment; filename="sales.txt"; filename*=UTF-8\'\'ventes%20%C3%A9t%C3%A9.csv';
          const type = ctx.url.searchParams.get('type');
          res.writeHead(200, { 'content-disposition': disposition, ...(type ? { 'content-type': type } : {}) });
          res.end(CSV);
        },
        '/files/*': (_req, res, ctx) => {
          // /files/<type>/<name>: a CSV served as <type> (none, octet-stream, text/plain) under <name>
          const [, , type, name] = ctx.url.pathname.split('/');
          res.writeHead(200, type === 'none' ? {} : { 'content-type': decodeURIComponent(type!) });
          res.end(name === 'notes.txt' ? 'Region,Sales\nNorth,120\n' : CSV);
        },
      },
    });
  },
});

describe('a Word file served as a PDF', () => {
  it('is scraped as the Word file its bytes are', async () => {
    const page = ok(await env.ck.scrape({ url: `${env.server.url}/files/report.pdf` }));
    expect(page.data.markdown).toContain('North doubled its sales');
    expect(page.data.metadata.title).toBe('Quarterly Report');
  });

  it('is parsed as the Word file its bytes are when uploaded as application/pdf', async () => {
    const parsed = ok(await env.ck.parse({ data: docx, filename: 'report.pdf', contentType: 'application/pdf' }));
    expect(parsed.data.markdown).toContain('North doubled its sales');
  });

  it('leaves bytes that are no document a PDF that could not be parsed', async () => {
    const page = await env.ck.scrape({ url: `${env.server.url}/files/broken.pdf` });
    expect(page).toMatchObject({ success: false, code: 'SCRAPE_PDF_PARSE_ERROR' });
  });
});

describe('an empty file served as a document', () => {
  it('is told as empty, not as bytes of another format', async () => {
    const page = await env.ck.scrape({ url: `${env.server.url}/files/empty.docx` });
    expect(page).toMatchObject({ success: false, code: 'SCRAPE_DOCUMENT_PARSE_ERROR' });
    expect((page as { error: string }).error).toBe('The file is empty (0 bytes), though served as DOCX.');
  });
});

describe('a CSV served under a generic type', () => {
  it.each(['none', 'application%2Foctet-stream', 'text%2Fplain'])(
    'is a table at a .csv URL served as %s',
    async (type) => {
      const page = ok(await env.ck.scrape({ url: `${env.server.url}/files/${type}/sales.csv` }));
      expect(page.data.markdown).toBe(TABLE);
    },
  );

  it.each(['id=7&type=application/octet-stream', 'id=7', 'id=8&type=text/plain'])(
    'is a table behind a download link named .csv by its Content-Disposition (%s)',
    async (query) => {
      const page = ok(await env.ck.scrape({ url: `${env.server.url}/download?${query}` }));
      expect(page.data.markdown).toBe(TABLE);
    },
  );

  it('stays text at another name', async () => {
    const page = ok(await env.ck.scrape({ url: `${env.server.url}/files/text%2Fplain/notes.txt` }));
    expect(page.data.markdown).toBe('Region,Sales\nNorth,120\n');
  });
});
