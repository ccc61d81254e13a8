/**
 * `POST /v2/parse`'s `options` part sent as a JSON field (`Content-Type: application/json`, as
 * `curl -F 'options={…};type=application/json'` sends it): its options apply, as those of a plain text part do. The
 * multipart reader parses such a part itself; the server took only text parts, and dropped these options silently
 * (a 300-page PDF was read whole under `maxPages: 2`).
 */
import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makePdf } from '../fixtures/make-pdf.ts';

const ck = new Crawlkit({ store: 'memory' });
let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer({ crawlkit: ck, port: 0 });
});
afterAll(async () => {
  await server.close();
  await ck.close();
});

const PDF = makePdf(
  'Five pages',
  Array.from({ length: 5 }, (_, i) => [`Page ${i + 1} text`]),
);

/** A multipart body written by hand: FormData cannot give a text field a Content-Type. */
function upload(options: string, type?: string): { body: Blob; headers: Record<string, string> } {
  const boundary = 'ck-boundary-7e3';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="options"\r\n` +
        (type ? `Content-Type: ${type}\r\n` : '') +
        `\r\n${options}\r\n--${boundary}\r\n` +
        'Content-Disposition: form-data; name="file"; filename="five.pdf"\r\nContent-Type: application/pdf\r\n\r\n',
    ),
    PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    body: new Blob([new Uint8Array(body)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const post = async (options: string, type?: string) => {
  const response = await fetch(`${server.url}/v2/parse`, { method: 'POST', ...upload(options, type) });
  return { status: response.status, json: (await response.json()) as { data: { metadata: Record<string, unknown> } } };
};

describe("POST /v2/parse's options part", () => {
  it.each([undefined, 'application/json', 'application/json; charset=utf-8'])(
    'applies the options of a part of Content-Type %s',
    async (type) => {
      const { status, json } = await post('{"parsers":[{"type":"pdf","maxPages":2}]}', type);
      expect(status).toBe(200);
      expect(json.data.metadata).toMatchObject({ numPages: 2, totalPages: 5 });
    },
  );

  it('refuses a JSON part that is not an object, or not JSON, as a text part is refused', async () => {
    for (const type of [undefined, 'application/json']) {
      expect(await post('[1]', type)).toMatchObject({
        status: 400,
        json: { error: expect.stringContaining('must be one JSON object') },
      });
      expect(await post('{"parsers":', type)).toMatchObject({
        status: 400,
        json: { error: expect.stringContaining('is not valid JSON') },
      });
    }
  });
});
