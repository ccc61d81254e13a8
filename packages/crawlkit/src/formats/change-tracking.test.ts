/**
 * changeTracking's json mode through the real `Crawlkit`: pages edited between scrapes on the fixture server, the
 * model reached over HTTP through the AI SDK's OpenAI-compatible provider, answered by the local fixture LLM server
 * (which fills a schema from `key: value` lines of the page). The rest of change tracking is tested end to end in
 * `test/change-tracking.test.ts`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startLlmServer, type LlmServer } from '../../../../fixtures/llm-server.ts';
import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { Crawlkit } from '../crawlkit.js';
import type { Document, ErrorResponse, ScrapeResponse } from '../v2/types.js';

let site: FixtureServer;
let llm: LlmServer;
let ck: Crawlkit;
let price = 40;

beforeAll(async () => {
  site = await startFixtureServer({
    routes: {
      '/ct/lamp': (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html><head><title>Lamp</title></head><body><main><h1>Lamp</h1>` +
            `<p>Price: ${price}</p><p>Stock: plenty</p></main></body></html>`,
        );
      },
    },
  });
  llm = await startLlmServer();
  const provider = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
  ck = new Crawlkit({ store: 'memory', engine: 'http', llm: provider.chatModel('fixture-model') });
});

afterAll(async () => {
  await ck.close();
  await llm.close();
  await site.close();
});

function data(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`scrape failed: ${response.code} ${response.error}`);
  return response.data;
}

const schema = {
  type: 'object',
  properties: { title: { type: 'string' }, price: { type: 'number' }, stock: { type: 'string' } },
  required: ['title', 'price', 'stock'],
};

describe('changeTracking json mode', () => {
  it('with a schema, returns the changed top-level keys as { previous, current }, only when changed', async () => {
    const url = `${site.url}/ct/lamp`;
    const formats = [
      'markdown' as const,
      {
        type: 'changeTracking' as const,
        modes: ['json', 'git-diff'] as ('json' | 'git-diff')[],
        schema,
        tag: 'schema',
      },
    ];
    const first = data(await ck.scrape({ url, formats }));
    expect(first.changeTracking?.changeStatus).toBe('new');
    expect(first.changeTracking).not.toHaveProperty('json');
    const calls = llm.requests.length;

    const same = data(await ck.scrape({ url, formats }));
    expect(same.changeTracking?.changeStatus).toBe('same');
    expect(llm.requests.length).toBe(calls); // no model call when nothing changed

    price = 45;
    const changed = data(await ck.scrape({ url, formats }));
    expect(changed.changeTracking?.changeStatus).toBe('changed');
    expect(changed.changeTracking?.json).toEqual({ price: { previous: 40, current: 45 } });
    expect(changed.changeTracking?.diff?.text).toContain('+Price: 45');
    expect(changed.metadata.creditsUsed).toBe(5);
    expect(changed.metadata.llmUsage).toMatchObject({ totalTokens: expect.any(Number) as number });
    expect(llm.requests.length).toBe(calls + 2); // both versions extracted
  });

  it('with only a prompt, returns the model comparison; a failing model leaves a warning, not an error', async () => {
    price = 50;
    const url = `${site.url}/ct/lamp`;
    const formats = [
      'markdown' as const,
      {
        type: 'changeTracking' as const,
        modes: ['json'] as 'json'[],
        prompt: 'What changed in the price?',
        tag: 'prompt',
      },
    ];
    data(await ck.scrape({ url, formats }));
    price = 55;
    const changed = data(await ck.scrape({ url, formats }));
    expect(changed.changeTracking?.changeStatus).toBe('changed');
    expect(typeof changed.changeTracking?.json).toBe('object');
    expect(changed.changeTracking?.json).not.toBeNull();

    price = 60;
    const down = { status: 400, body: { error: { message: 'model down' } } };
    llm.enqueue(down, down, down);
    const failed = data(await ck.scrape({ url, formats }));
    expect(failed.changeTracking?.changeStatus).toBe('changed');
    expect(failed.changeTracking).not.toHaveProperty('json');
    expect(failed.warning).toContain('Structured diff generation failed.');
  });
});
