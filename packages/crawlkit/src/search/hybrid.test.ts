import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';

import { Crawlkit } from '../crawlkit.js';

/** A two-dimension "model": birds on one axis, walruses on the other (what a real model does with meaning). */
const model = new MockEmbeddingModelV4({
  doEmbed: ({ values }) =>
    Promise.resolve({
      embeddings: values.map((v) => [/bird|pelican/i.test(v) ? 1 : 0, /walrus/i.test(v) ? 1 : 0.01]),
      warnings: [],
    }),
});

describe('hybrid ranking', () => {
  it('moves up the page that means the query, when a model is configured; BM25 alone otherwise', async () => {
    const pages = [
      ['walrus', 'The walrus sleeps in the harbour. The harbour is his. Harbour, harbour.'],
      ['pelican', 'A pelican flies over the harbour.'],
    ] as const;
    const orders: string[][] = [];
    for (const embeddingModel of [undefined, model]) {
      const ck = new Crawlkit({
        store: 'memory',
        engine: 'http',
        ...(embeddingModel ? { search: { embeddingModel } } : {}),
      });
      const server = createServer((req, res) => {
        const name = (req.url ?? '').slice(1);
        const body = pages.find(([n]) => n === name)?.[1] ?? '';
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html><head><title>${name}</title></head><body><main><p>${body}</p></main></body></html>`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      try {
        for (const [name] of pages) await ck.scrape({ url: `http://127.0.0.1:${port}/${name}` });
        const answer = await ck.search({ query: 'harbour bird' });
        if (!answer.success) throw new Error(answer.error);
        orders.push((answer.data.web ?? []).map((r) => new URL(r.url).pathname));
      } finally {
        server.close();
        await ck.close();
      }
    }
    expect(orders).toEqual([
      ['/walrus', '/pelican'],
      ['/pelican', '/walrus'],
    ]);
  });
});
