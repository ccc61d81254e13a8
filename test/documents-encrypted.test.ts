/**
 * Files protected by a password have a code of their own, SCRAPE_DOCUMENT_ENCRYPTED, whatever their format, so that
 * a pipeline routes them to whoever can unlock them without reading the message: a .docx, .xlsx or .pptx saved with
 * a password (a Compound File holding `EncryptionInfo` and `EncryptedPackage` streams, MS-OFFCRYPTO), an OpenDocument
 * saved with one (its manifest gives its parts' encryption), a PDF with a user password (RC4, as the Standard security
 * handler writes it). Scraped (served typed or as octet-stream), parsed, through `serve`'s `/v2/parse` and
 * `/v2/scrape`, `crawlkit parse` and a batch's page error; each message says to save a copy without the password,
 * with the status the generic codes had (500). A PDF with an owner password only opens for anyone, and is read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer } from '@crawlkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeLockedPdf } from '../fixtures/make-locked-pdf.ts';
import { startFixtureServer } from '../fixtures/server.ts';
import { compoundFile, encryptedOdf } from '../packages/documents/src/__fixtures__/writers.ts';
import { ensureBuilt, runCli } from './cli-helpers.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

// A Compound File holding the two streams Office writes for a protected file.
const office = Buffer.from(compoundFile(['EncryptionInfo', 'EncryptedPackage']));
const odt = Buffer.from(encryptedOdf('report.odt'));
const lockedPdf = makeLockedPdf('Settlement', [['Settlement terms: strictly confidential.']], {
  owner: 'partner',
  user: 'hunter2',
});
const ownerOnlyPdf = makeLockedPdf('Agreement', [['Clause 1. The Supplier shall deliver the Goods.']], {
  owner: 'partner',
});
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const ODT = 'application/vnd.oasis.opendocument.text';
const FILES: Record<string, [Buffer, string]> = {
  '/secret.docx': [office, DOCX],
  '/secret-octet.docx': [office, 'application/octet-stream'],
  '/secret.odt': [odt, ODT],
  '/locked.pdf': [lockedPdf, 'application/pdf'],
  '/owner-only.pdf': [ownerOnlyPdf, 'application/pdf'],
};
const serve = (res: ServerResponse, [body, type]: [Buffer, string]) => {
  res.writeHead(200, { 'content-type': type });
  res.end(body);
};

const env = useFixtureEngine({
  server: () =>
    startFixtureServer({
      routes: Object.fromEntries(Object.entries(FILES).map(([path, file]) => [path, (_req, res) => serve(res, file)])),
    }),
});

/** What every protected file answers: the code of its own and a message saying what to do. */
const ENCRYPTED = {
  success: false,
  code: 'SCRAPE_DOCUMENT_ENCRYPTED',
  error: expect.stringMatching(
    /protected by a password.*(save a copy without the password|Save it without a password)/,
  ),
};
const PROTECTED = ['/secret.docx', '/secret-octet.docx', '/secret.odt', '/locked.pdf'];

describe('a file protected by a password', () => {
  it.each(PROTECTED)('is refused as SCRAPE_DOCUMENT_ENCRYPTED when scraped (%s)', async (path) => {
    expect(await env.ck.scrape({ url: env.server.url + path })).toMatchObject(ENCRYPTED);
  });

  it('is refused as SCRAPE_DOCUMENT_ENCRYPTED when parsed, with or without its type', async () => {
    const uploads = [
      { data: office, filename: 'secret.docx' },
      { data: office, filename: 'secret.xlsx', contentType: DOCX },
      { data: odt, filename: 'secret.odt' },
      { data: odt, filename: 'upload.bin', contentType: 'application/octet-stream' },
      { data: lockedPdf, filename: 'locked.pdf' },
    ];
    for (const upload of uploads) expect(await env.ck.parse(upload), upload.filename).toMatchObject(ENCRYPTED);
  });

  it('is read when it has an owner password only (a PDF anyone may open)', async () => {
    const scraped = await env.ck.scrape({ url: `${env.server.url}/owner-only.pdf` });
    expect(scraped).toMatchObject({ success: true, data: { metadata: { title: 'Agreement', numPages: 1 } } });
    const parsed = await env.ck.parse({ data: ownerOnlyPdf, filename: 'owner-only.pdf' });
    for (const result of [scraped, parsed]) {
      if (!result.success) throw new Error(result.error);
      expect(result.data.markdown).toContain('Clause 1. The Supplier shall deliver the Goods.');
    }
  });

  it("is a batch's page error of its own code, beside the file that opens", async () => {
    const urls = [...PROTECTED, '/owner-only.pdf'].map((path) => env.server.url + path);
    const started = await env.ck.batchScrape({ urls });
    if (!started.success) throw new Error(started.error);
    expect(await env.ck.waitForJob(started.id)).toMatchObject({ status: 'completed', completed: 1 });
    const errors = await env.ck.getBatchScrapeErrors(started.id);
    if (!('errors' in errors)) throw new Error(errors.error);
    expect(errors.errors.map((e) => [new URL(e.url).pathname, e.code]).sort()).toEqual(
      PROTECTED.map((path) => [path, 'SCRAPE_DOCUMENT_ENCRYPTED']).sort(),
    );
  });

  describe('through crawlkit serve', () => {
    let server: Awaited<ReturnType<typeof startServer>>;
    beforeAll(async () => {
      server = await startServer({ crawlkit: env.ck, port: 0 });
    });
    afterAll(() => server.close());

    const post = async (path: string, body: BodyInit, headers: Record<string, string> = {}) => {
      const response = await fetch(server.url + path, { method: 'POST', body, headers });
      return { status: response.status, json: (await response.json()) as unknown };
    };

    it('answers POST /v2/parse with the code and status 500', async () => {
      for (const [name, data] of [
        ['locked.pdf', lockedPdf],
        ['secret.docx', office],
        ['secret.odt', odt],
      ] as const) {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(data)]), name);
        expect(await post('/v2/parse', form), name).toEqual({ status: 500, json: expect.objectContaining(ENCRYPTED) });
      }
    });

    it('answers POST /v2/scrape with the code and status 500', async () => {
      for (const path of ['/locked.pdf', '/secret.docx']) {
        const body = JSON.stringify({ url: env.server.url + path });
        expect(await post('/v2/scrape', body, { 'content-type': 'application/json' }), path).toEqual({
          status: 500,
          json: expect.objectContaining(ENCRYPTED),
        });
      }
    });
  });

  describe('through crawlkit parse', { timeout: 60_000 }, () => {
    let dir: string;
    beforeAll(() => {
      ensureBuilt();
      dir = mkdtempSync(join(tmpdir(), 'ck-encrypted-'));
      writeFileSync(join(dir, 'locked.pdf'), lockedPdf);
      writeFileSync(join(dir, 'secret.docx'), office);
      writeFileSync(join(dir, 'owner-only.pdf'), ownerOnlyPdf);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('exits 1 naming the code, and lists it among several files', async () => {
      const run = (args: string[]) => runCli([...args, '--store', join(dir, 'store')], { cwd: dir });
      for (const name of ['locked.pdf', 'secret.docx']) {
        const out = await run(['parse', name]);
        expect(out.code, name).toBe(1);
        expect(out.stderr, name).toMatch(/protected by a password.*SCRAPE_DOCUMENT_ENCRYPTED/s);
      }
      const several = await run(['parse', 'locked.pdf', 'secret.docx', 'owner-only.pdf', '--json']);
      expect(JSON.parse(several.stdout)).toMatchObject({
        completed: 1,
        errors: [
          { url: 'locked.pdf', code: 'SCRAPE_DOCUMENT_ENCRYPTED' },
          { url: 'secret.docx', code: 'SCRAPE_DOCUMENT_ENCRYPTED' },
        ],
      });
    });
  });
});
