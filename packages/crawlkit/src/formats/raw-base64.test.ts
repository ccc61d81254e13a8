/** `rawBase64`: the page's bytes as fetched, base64-encoded, live and from the page cache, for HTML and binary pages. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { Crawlkit } from '../crawlkit.js';
import type { Document, ErrorResponse, ScrapeResponse } from '../v2/types.js';

const SITE = fileURLToPath(new URL('../../../../fixtures/site', import.meta.url));

let server: FixtureServer;
let ck: Crawlkit;

beforeAll(async () => {
  server = await startFixtureServer();
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await server.close();
});

function data(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`scrape failed: ${response.code} ${response.error}`);
  return response.data;
}

describe('the rawBase64 format', () => {
  it("is the page's bytes as served, alone in the document, and the same from the page cache", async () => {
    const url = `${server.url}/articles/first-post.html`;
    const served = await readFile(join(SITE, 'articles/first-post.html'));
    const live = data(await ck.scrape({ url, formats: ['rawBase64'] }));
    expect(Object.keys(live).sort()).toEqual(['metadata', 'rawBase64']);
    expect(Buffer.from(live.rawBase64!, 'base64').equals(served)).toBe(true);
    expect(live.metadata.cacheState).toBe('miss');
    const cached = data(await ck.scrape({ url, formats: [{ type: 'rawBase64' }], maxAge: 60_000 }));
    expect(cached.metadata.cacheState).toBe('hit');
    expect(cached.rawBase64).toBe(live.rawBase64);
  });

  it('keeps a binary body byte for byte', async () => {
    const live = await fetch(`${server.url}/http/image`);
    const doc = data(await ck.scrape({ url: `${server.url}/http/image`, formats: ['rawBase64'] }));
    expect(Buffer.from(doc.rawBase64!, 'base64').equals(Buffer.from(await live.arrayBuffer()))).toBe(true);
  });

  it('is refused beside another format, with the v2 error shape', async () => {
    const response = await ck.scrape({ url: `${server.url}/`, formats: ['rawBase64', 'markdown'] });
    expect(response).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((response as ErrorResponse).error).toMatch(/rawBase64 format cannot be combined with other formats/);
  });
});
