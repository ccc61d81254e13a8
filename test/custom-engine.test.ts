/**
 * An engine of one's own, written as a user outside the repository would: against the types `@crawlkit/fetcher`'s
 * entry exports (`PageEngine`, `EngineCall`, `BuiltinEngines` for `bind`, `RenderVerdict`), given to a `Fetcher` in
 * `engines` and chosen by a request's `engine`. `pnpm typecheck` fails when one of those types is not exported.
 */
import {
  Fetcher,
  type BuiltinEngines,
  type EngineCall,
  type PageEngine,
  type PageResult,
  type RenderVerdict,
} from '@crawlkit/fetcher';
import { describe, expect, it } from 'vitest';

/** Serves pages from a map of paths to HTML, and renders nothing itself (it could, through the browser it is bound to). */
class MapEngine implements PageEngine {
  readonly name = 'map';
  readonly renders = false;
  browser: PageEngine | undefined;
  closed = 0;
  readonly #pages: Map<string, string>;

  constructor(pages: Record<string, string>) {
    this.#pages = new Map(Object.entries(pages));
  }

  bind(engines: BuiltinEngines): void {
    this.browser = engines.browser;
  }

  fetch<V extends RenderVerdict>(call: EngineCall<V>): Promise<PageResult<V>> {
    const url = new URL(call.request.url);
    const html = this.#pages.get(url.pathname);
    const body = new TextEncoder().encode(html ?? 'not found');
    return Promise.resolve({
      url: url.href,
      status: html === undefined ? 404 : 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      contentType: 'text/html',
      charset: 'utf-8',
      body,
      text: html ?? 'not found',
      redirects: [],
      engine: 'http',
      engineReason: call.reason,
      proxyUsed: 'basic',
    });
  }

  close(): Promise<void> {
    this.closed++;
    return Promise.resolve();
  }
}

describe('an engine of your own', () => {
  it('is bound to the built-in browser, serves the requests that name it and is closed with the fetcher', async () => {
    const engine = new MapEngine({ '/a': '<html><body><h1>From the map</h1></body></html>' });
    const fetcher = new Fetcher({ engines: [engine] });
    expect(engine.browser?.name).toBe('browser');
    const page = await fetcher.fetch({ url: 'http://docs.invalid/a', engine: 'map' });
    expect(page).toMatchObject({ status: 200, engineReason: 'engine:map' });
    expect(page.text).toContain('From the map');
    expect((await fetcher.fetch({ url: 'http://docs.invalid/b', engine: 'map' })).status).toBe(404);
    await fetcher.close();
    expect(engine.closed).toBe(1);
  });
});
