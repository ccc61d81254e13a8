/**
 * Office files saved with a password: a .docx, .xlsx or .pptx protected by a password is a Compound File holding
 * `EncryptionInfo` and `EncryptedPackage` streams (MS-OFFCRYPTO). Scraped (served typed or as octet-stream) or
 * parsed, it is refused with SCRAPE_DOCUMENT_PARSE_ERROR saying it is protected by a password, as the errors table
 * promises for an encrypted file, instead of "its bytes are not a DOCX file" or "unsupported file".
 */
import type { ServerResponse } from 'node:http';

import { describe, expect, it } from 'vitest';

import { startFixtureServer } from '../fixtures/server.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

/** A Compound File laid out as Office writes a protected file: header, FAT, the directory, the streams' sectors. */
function protectedOfficeFile(): Buffer {
  const sector = 512;
  const header = Buffer.alloc(sector);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 24); // minor version
  header.writeUInt16LE(3, 26); // major version 3: 512-byte sectors
  header.writeUInt16LE(0xfffe, 28); // little-endian
  header.writeUInt16LE(9, 30); // sector shift
  header.writeUInt16LE(6, 32); // mini sector shift
  header.writeUInt32LE(1, 44); // one FAT sector
  header.writeUInt32LE(1, 48); // the directory starts at sector 1
  header.writeUInt32LE(4096, 56); // mini stream cutoff
  header.writeUInt32LE(0xfffffffe, 60); // no mini FAT
  header.writeUInt32LE(0xfffffffe, 68); // no DIFAT sectors
  header.fill(0xff, 76, sector);
  header.writeUInt32LE(0, 76); // the FAT is sector 0
  const fat = Buffer.alloc(sector, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0); // sector 0: FAT
  fat.writeUInt32LE(0xfffffffe, 4); // sector 1: directory, end of chain
  for (let s = 2; s < 10; s++) fat.writeUInt32LE(s === 9 ? 0xfffffffe : s + 1, s * 4); // sectors 2-9: the streams
  const entry = (name: string, type: number, start: number, size: number) => {
    const e = Buffer.alloc(128);
    e.write(name, 0, 'utf16le');
    e.writeUInt16LE((name.length + 1) * 2, 64);
    e.writeUInt8(type, 66);
    e.writeUInt32LE(0xffffffff, 68);
    e.writeUInt32LE(0xffffffff, 72);
    e.writeUInt32LE(0xffffffff, 76);
    e.writeUInt32LE(start, 116);
    e.writeUInt32LE(size, 120);
    return e;
  };
  const root = entry('Root Entry', 5, 0xfffffffe, 0);
  root.writeUInt32LE(1, 76); // its child: EncryptionInfo
  const info = entry('EncryptionInfo', 2, 2, 512);
  info.writeUInt32LE(2, 72); // its right sibling: EncryptedPackage
  const directory = Buffer.concat([root, info, entry('EncryptedPackage', 2, 3, 3584), Buffer.alloc(128)]);
  const streams = Buffer.alloc(8 * sector);
  for (let i = 0; i < streams.length; i++) streams[i] = (i * 131) & 0xff;
  return Buffer.concat([header, fat, directory, streams]);
}

const file = protectedOfficeFile();
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
