import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Fetcher } from '../fetcher.js';
import type { PageResult } from '../page.js';
import type { RenderVerdict } from '../render/judge.js';
import type { EngineCall, PageEngine } from './page-engine.js';

let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    hits++;
    response.setHeader('content-type', 'text/html');
    response.end('<html><body><main><p>' + 'A page that holds its content. '.repeat(20) + '</p></main></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A third engine: answers from memory, never opens a socket. */
class MemoryEngine implements PageEngine {
  readonly name = 'memory';
  readonly renders = false;
  closed = 0;
  calls: EngineCall<RenderVerdict>[] = [];

  fetch<V extends RenderVerdict>(call: EngineCall<V>): Promise<PageResult<V>> {
    this.calls.push(call);
    const text = '<html><body><p>from memory</p></body></html>';
    return Promise.resolve({
      url: call.request.url,
      status: 200,
      headers: { 'content-type': 'text/html' },
      contentType: 'text/html',
      body: new TextEncoder().encode(text),
      text,
      redirects: [],
      engine: 'http',
      engineReason: call.reason,
      proxyUsed: call.attempt.mode,
    });
  }

  close(): Promise<void> {
    this.closed++;
    return Promise.resolve();
  }
}

describe('engines behind one interface', () => {
  it('serves a request from an engine given to the fetcher, chosen by its name, with no request sent', async () => {
    const memory = new MemoryEngine();
    const fetcher = new Fetcher({ engines: [memory] });
    const before = hits;
    const page = await fetcher.fetch({ url: `${base}/a`, engine: 'memory', screenshot: { fullPage: false } });
    expect(page.text).toContain('from memory');
    expect(page.engineReason).toBe('engine:memory');
    // it renders nothing: the browser-only option is reported, as for a forced HTTP engine
    expect(page.unsupportedFeatures).toEqual(['screenshot']);
    expect(hits).toBe(before);
    expect(memory.calls).toHaveLength(1);
    await fetcher.close();
    expect(memory.closed).toBe(1);
  });

  it('refuses an engine name nobody registered, listing the names there are', async () => {
    const fetcher = new Fetcher();
    await expect(fetcher.fetch({ url: `${base}/a`, engine: 'replay' })).rejects.toMatchObject({
      code: 'SCRAPE_INVALID_REQUEST',
      message: expect.stringContaining('http, browser, auto') as string,
    });
    await fetcher.close();
  });

  it('refuses two engines of one name when it is built', () => {
    const twin = new MemoryEngine();
    const named: PageEngine = {
      name: 'http',
      renders: false,
      fetch: (call) => twin.fetch(call),
      close: () => twin.close(),
    };
    expect(() => new Fetcher({ engines: [named] })).toThrow(/two engines are named `http`/);
  });

  it("attaches the judge's verdict to the page it judged, extras included, and to no other", async () => {
    const fetcher = new Fetcher();
    const judged: string[] = [];
    const page = await fetcher.fetch<RenderVerdict & { mark: string }>({
      url: `${base}/b`,
      renderJudge: (p) => {
        judged.push(p.url);
        return { contentChars: 600, mark: 'judged here' };
      },
    });
    expect(page.engineReason).toBe('http:static');
    expect(page.verdict).toEqual({ contentChars: 600, mark: 'judged here' });
    expect(judged).toEqual([`${base}/b`]);
    await fetcher.close();
  });

  it.each(['auto', 'http'] as const)(
    'tells onAnswer the status and headers before the judge reads the page (%s)',
    async (engine) => {
      const fetcher = new Fetcher({ engine });
      const seen: string[] = [];
      await fetcher.fetch({
        url: `${base}/c`,
        onAnswer: (answer) => seen.push(`answer ${answer.status} ${answer.headers['content-type']}`),
        renderJudge: () => {
          seen.push('judged');
          return { contentChars: 600 };
        },
      });
      expect(seen).toEqual(['answer 200 text/html', 'judged']);
      await fetcher.close();
    },
  );
});
