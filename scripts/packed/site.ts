/**
 * The site the packed install scrapes, on 127.0.0.1: an article page, a small site to crawl, a PDF, and the hostile
 * files the installed packages must refuse within their budgets. Add a route here for a new step's file.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { makeInflatingPdf, makePdf } from '../../fixtures/make-pdf.ts';
import { entityDocx, zipBombDocx } from '../../packages/documents/src/__fixtures__/hostile.ts';
import { makeDocx, makeScannedPdf } from '../../packages/documents/src/__fixtures__/writers.ts';

export const ARTICLE_TITLE = 'Packed install check';
/** A line of the text PDF's first page. */
export const PDF_LINE = 'Shipped files are traced files';

const ARTICLE =
  `<!doctype html><html><head><title>${ARTICLE_TITLE}</title></head><body><nav><a href="/">Home</a></nav>` +
  '<main><article><h1>What users install is what we test</h1><p>This page is served to the packages installed ' +
  'from their tarballs with npm, in an empty folder, to check that a scrape works there as it does in the ' +
  'workspace.</p><p>A second paragraph, so that the main content is plainly an article.</p></article></main>' +
  '<footer>Footer</footer></body></html>';

/** A page whose charset is declared nowhere, written in windows-1252 bytes by `routes()`. */
const LEGACY =
  '<!doctype html><html lang="fr"><head><title>Légère</title></head><body><main><article><h1>Déjà vu à Noël</h1>' +
  '<p>Une fenêtre ouverte sur la forêt, où un élève a noté ses pensées écrites à la main, page après page.</p>' +
  '</article></main></body></html>';

/** A page of the small site a packed crawl follows: `/docs/` links to `/docs/a` and `/docs/b`. */
const doc = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><article><h1>${title}</h1><p>${body}</p>` +
  '<p>A second paragraph, so that the main content is plainly an article.</p></article></main></body></html>';

/** A paragraph in windows-1252 (written through `latin1` below: each character here is the byte the page holds). */
const LATIN1 = doc('Prix', '\x93Prix\x94 \x96 20 \x80, l\x92\xe9t\xe9');
export const LATIN1_TEXT = '“Prix” – 20 €, l’été';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The files served, by path: the article and the hostile files (a new step's file is one more entry). */
async function routes(): Promise<Record<string, { type: string; body: string | Uint8Array }>> {
  return {
    '/article': { type: 'text/html; charset=utf-8', body: ARTICLE },
    '/docs/': {
      type: 'text/html; charset=utf-8',
      body: doc('Docs', 'Read <a href="/docs/a">installing</a>, then <a href="/docs/b">running</a>.'),
    },
    '/docs/a': { type: 'text/html; charset=utf-8', body: doc('Installing', 'Install the packages with npm.') },
    '/docs/b': { type: 'text/html; charset=utf-8', body: doc('Running', 'Run the engine from a script.') },
    // windows-1252 under the label many servers send: its quotes, dash and euro sign are bytes 0x80-0x9F
    '/latin1': { type: 'text/html; charset=iso-8859-1', body: Buffer.from(LATIN1, 'latin1') },
    // a 1 MB PDF whose one content stream inflates to 1 GiB
    '/bomb.pdf': { type: 'application/pdf', body: makeInflatingPdf(1024 ** 3, 'unreachable') },
    // a DOCX holding an entry that inflates to 512 MiB, its size hidden in the zip headers
    '/zip-bomb.docx': { type: DOCX, body: await zipBombDocx(512, true) },
    // a DOCX whose document.xml declares a billion laughs
    '/xml-bomb.docx': { type: DOCX, body: await entityDocx('laughs') },
    // a plain Word document (its reader, officeparser, is an optional dependency)
    '/report.docx': { type: DOCX, body: await makeDocx() },
    // a PDF with a text layer, and one whose first page is a scanned image (read by OCR)
    '/report.pdf': { type: 'application/pdf', body: makePdf('Traced report', [[PDF_LINE]]) },
    '/scanned.pdf': { type: 'application/pdf', body: await makeScannedPdf() },
    // a page in windows-1252 that declares no charset (read by the sniffer and the statistical detector)
    '/legacy': { type: 'text/html', body: Buffer.from(LEGACY, 'latin1') },
    // a 13 MB table that a worker heap of 64 MiB cannot extract
    '/table': {
      type: 'text/html',
      body: `<table>${`<tr>${'<td>cell</td>'.repeat(1_000)}</tr>`.repeat(1_000)}</table>`,
    },
  };
}

export interface Site {
  url: string;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const files = await routes();
  const server: Server = createServer((req, res) => {
    const route = files[req.url ?? ''];
    if (!route) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': route.type, 'content-length': Buffer.byteLength(route.body) });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
