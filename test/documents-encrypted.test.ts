/**
 * Office files saved with a password: a .docx, .xlsx or .pptx protected by a password is a Compound File holding
 * `EncryptionInfo` and `EncryptedPackage` streams (MS-OFFCRYPTO). Scraped (served typed or as octet-stream) or
 * parsed, it is refused with SCRAPE_DOCUMENT_PARSE_ERROR saying it is protected by a password, as the errors table
 * promises for an encrypted file, instead of "its bytes are not a DOCX file" or "unsupported file".
 */
import type { ServerResponse } from 'node:http';

import { describe, expect, it } from 'vitest';

import { startFixtureServer } from '../fixtures/server.ts';
import { compoundFile } from '../packages/documents/src/__fixtures__/writers.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

// A Compound File holding the two streams Office writes for a protected file.
const file = Buffer.from(compoundFile(['EncryptionInfo', 'EncryptedPackage']));
const serve = (res: ServerResponse, type: string) => {
  res.writeHead(200, { 'content-type': type });
  res.end(file);
};
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const env = useFixtureEngine({
  server: () =>
    startFixtureServer({
      routes: {
        '/secret.docx': (_req, res) => serve(res, DOCX),
        '/secret-octet.docx': (_req, res) => serve(res, 'application/octet-stream'),
      },
    }),
});

const PASSWORD = expect.stringContaining('protected by a password') as unknown;

describe('an Office file saved with a password', () => {
  it.each(['/secret.docx', '/secret-octet.docx'])(
    'is refused as protected by a password when scraped (%s)',
    async (path) => {
      expect(await env.ck.scrape({ url: env.server.url + path })).toMatchObject({
        success: false,
        code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
        error: PASSWORD,
      });
    },
  );

  it('is refused as protected by a password when parsed, with or without its type', async () => {
    for (const upload of [{ filename: 'secret.docx' }, { filename: 'secret.xlsx', contentType: DOCX }]) {
      expect(await env.ck.parse({ data: file, ...upload })).toMatchObject({
        success: false,
        code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
        error: PASSWORD,
      });
    }
  });
});
