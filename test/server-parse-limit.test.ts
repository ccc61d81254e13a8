/**
 * One `parseFileLimit` for a library user: the HTTP server's uploads take the engine's limit unless the server is
 * given its own, so raising the engine's (`new Crawlkit({ parseFileLimit })`) raises what `POST /v2/parse` takes.
 */
import { resolveServerOptions, startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { afterAll, describe, expect, it } from 'vitest';

const engines: Crawlkit[] = [];
const engine = (parseFileLimit?: number) => {
  const ck = new Crawlkit({ store: 'memory', ...(parseFileLimit !== undefined ? { parseFileLimit } : {}) });
  engines.push(ck);
  return ck;
};
afterAll(async () => {
  await Promise.all(engines.map((ck) => ck.close()));
});

describe("the server's parseFileLimit", () => {
  it("is the engine's unless given: raised, lowered, or the default", () => {
    const raised = 60 * 1024 * 1024;
    expect(resolveServerOptions({ crawlkit: engine(raised) }).parseFileLimit).toBe(raised);
    expect(resolveServerOptions({ crawlkit: engine(4096) }).parseFileLimit).toBe(4096);
    expect(resolveServerOptions({ crawlkit: engine() }).parseFileLimit).toBe(50 * 1024 * 1024);
    expect(resolveServerOptions({ crawlkit: engine(raised), parseFileLimit: 1024 }).parseFileLimit).toBe(1024);
  });

  it("refuses an upload past the engine's limit before reading it whole, naming the size", async () => {
    const server = await startServer({ crawlkit: engine(4096), port: 0 });
    try {
      const form = new FormData();
      form.append('options', '{}');
      form.append('file', new Blob([new Uint8Array(8192).fill(0x41)]), 'big.csv');
      const response = await fetch(`${server.url}/v2/parse`, { method: 'POST', body: form });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        error: expect.stringMatching(/^The uploaded file is larger than 4096 bytes \(parseFileLimit/),
      });
    } finally {
      await server.close();
    }
  });
});
