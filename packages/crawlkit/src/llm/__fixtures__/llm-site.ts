/**
 * A page site and a model server (`fixtures/llm-server.ts`, which misbehaves as real ones do when asked), shared by the
 * LLM tests: `useLlmSite(routes)` starts both for the file, resets the model server before each test and closes every
 * engine it made after the file.
 */
import type { ServerResponse } from 'node:http';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { startLlmServer, type LlmServer } from '../../../../../fixtures/llm-server.ts';
import { startFixtureServer, type FixtureServer, type Routes } from '../../../../../fixtures/server.ts';
import { Crawlkit } from '../../crawlkit.js';
import type { CrawlkitOptions } from '../../options.js';
import type { ErrorResponse } from '../../v2/types.js';
import type { LlmOptions } from '../llm-options.js';

const PRODUCT = `<!doctype html><html lang="en"><head><title>Lamp</title></head><body><main><h1>Aurora Desk Lamp</h1>
  <p>The Aurora is a dimmable LED desk lamp with a warm light that is easy on the eyes during long evenings.</p>
  <ul><li>Price: 49.50</li></ul></main></body></html>`;

// Distinct paragraphs (main-content extraction drops repeats): about 3,000 tokens.
const LONG = `<!doctype html><html lang="en"><head><title>Long</title></head><body><main><h1>Long</h1>${Array.from(
  { length: 200 },
  (_, i) => `<p>Paragraph ${i}: the lamp was tested in room ${i * 7} under ${i % 13} lights.</p>`,
).join('')}<p>Price: 49.50</p></main></body></html>`;

/** The schema every fault test extracts: a product's title and price. */
export const schema = {
  type: 'object',
  properties: { title: { type: 'string' }, price: { type: 'number' } },
  required: ['title', 'price'],
};

/** The usage a failed page reports in its error's details. */
export const spentOn = (response: ErrorResponse) => (response.details as { usage?: { totalTokens: number } }).usage;

/** A route answering `body` as an HTML page. */
export const send = (body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

/** The fault tests' pages: a short product and a page of about 3,000 tokens. */
export const faultRoutes: Routes = { '/faults/product': send(PRODUCT), '/faults/long': send(LONG) };

/** The servers of one test file, and a maker of engines pointed at its model server. */
export interface LlmSite {
  readonly site: FixtureServer;
  readonly llm: LlmServer;
  engine(settings?: Omit<LlmOptions, 'model'>, options?: Partial<CrawlkitOptions>): Crawlkit;
  /** Closes an engine the test made itself (against a model server of its own) after the file. */
  own(ck: Crawlkit): Crawlkit;
}

/** Registers the file's hooks; the servers are there once `beforeAll` ran. */
export function useLlmSite(routes: Routes): LlmSite {
  let site: FixtureServer | undefined;
  let llm: LlmServer | undefined;
  const engines: Crawlkit[] = [];
  const started = <T>(server: T | undefined): T => {
    if (!server) throw new Error('useLlmSite: the servers start in beforeAll');
    return server;
  };

  beforeAll(async () => {
    [site, llm] = await Promise.all([startFixtureServer({ routes }), startLlmServer()]);
  });

  // A model request whose page timed out ends when its connection closes, which can be after the page's answer: the
  // next test starts once it has, or its in-flight counts would include it.
  beforeEach(async () => {
    await started(llm).idle();
    started(llm).reset();
  });

  afterAll(() => Promise.all([...engines.map((ck) => ck.close()), llm?.close(), site?.close()]));

  return {
    get site() {
      return started(site);
    },
    get llm() {
      return started(llm);
    },
    engine(settings = {}, options = {}) {
      const provider = createOpenAICompatible({
        name: 'local',
        baseURL: started(llm).url,
        supportsStructuredOutputs: true,
      });
      const ck = new Crawlkit({
        store: 'memory',
        engine: 'http',
        ...options,
        llm: { model: provider.chatModel('fixture-model'), ...settings },
      });
      engines.push(ck);
      return ck;
    },
    own(ck) {
      engines.push(ck);
      return ck;
    },
  };
}
