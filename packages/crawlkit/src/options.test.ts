import { describe, expect, it } from 'vitest';

import {
  Crawlkit,
  hasCrawlkitCode,
  isInvalidOptionError,
  type CrawlkitOptions,
  type InvalidOptionError,
} from './index.js';

/** The error `new Crawlkit(options)` throws. */
function refused(options: unknown): InvalidOptionError {
  try {
    new Crawlkit(options as CrawlkitOptions);
  } catch (error) {
    expect(isInvalidOptionError(error)).toBe(true);
    return error as InvalidOptionError;
  }
  throw new Error('new Crawlkit() accepted the options');
}

describe('new Crawlkit() options', () => {
  it('names a misspelt option', () => {
    const error = refused({ concurency: 4, engine: 'turbo' });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.code).toBe('INVALID_OPTION');
    expect(hasCrawlkitCode(error)).toBe(true);
    expect(error.message).toContain('`concurency`');
  });

  it('names a bad value and shows it', () => {
    expect(refused({ engine: 'turbo' }).message).toMatch(/`engine`.*auto.*`'turbo'`/);
    expect(refused({ concurrency: 0 }).message).toMatch(/`concurrency`.*got `0`/);
    expect(refused({ webhooks: { timeoutMs: 1.5 } }).message).toContain('`webhooks.timeoutMs`');
    expect(refused({ webhooks: { retries: 3 } }).message).toContain('`webhooks.retries`');
    expect(refused({ cache: { maxBytes: -1 } }).message).toContain('`cache.maxBytes`');
    expect(refused({ store: 'disk' }).message).toContain('`store`');
    // `--store DIR` on the command line is `storeDir` here: a path given as `store` says so
    expect(refused({ store: './my-store' }).message).toMatch(
      /`store`.*for a directory, use `storeDir`.*`'\.\/my-store'`/,
    );
    expect(refused({ store: {} }).message).not.toContain('storeDir');
    expect(refused({ store: { dir: '/tmp/forum' } }).message).toMatch(
      /`store`.*for a directory, use `storeDir: "\/tmp\/forum"`/,
    );
    // and the in-memory store given as `storeDir` made a folder named memory
    expect(refused({ storeDir: 'memory' }).message).toMatch(
      /`storeDir`.*for the in-memory store write store: 'memory'/,
    );
    expect(refused({ logger: console.log }).message).toContain('`logger`');
  });

  it('refuses a store that lacks a method, naming it, instead of failing at the first scrape', () => {
    const pages = { get: () => {}, put: () => {}, deleteByUrl: () => {}, clear: () => {}, prune: () => {} };
    const cache = { kind: 'mine', ephemeral: false, pages, close: async () => {} };
    expect(refused({ store: cache }).message).toMatch(
      /^Invalid options of new Crawlkit\(\): `store`: Expected 'memory', a Store or a PageCache \(@crawlkit\/store\): `pages.stats` is missing\. A PageCache has/,
    );
    expect(refused({ store: { ...cache, pages: 42 } }).message).toContain('`pages.get` is missing');
    expect(refused({ store: { ...cache, pages: { ...pages, stats: 1 } } }).message).toContain(
      '`pages.stats` is not a function',
    );
    expect(refused({ store: { ...cache, kind: undefined, pages: { ...pages, stats: () => {} } } }).message).toContain(
      '`kind` is missing',
    );
  });

  it('refuses a store with some of the parts of a full Store, naming those it lacks', () => {
    const pages = { get: 0, put: 0, deleteByUrl: 0, clear: 0, prune: 0, stats: 0 };
    const cache = {
      kind: 'mine',
      ephemeral: false,
      pages: Object.fromEntries(Object.keys(pages).map((name) => [name, () => {}])),
      close: async () => {},
    };
    expect(() => new Crawlkit({ store: cache as never })).not.toThrow();
    expect(refused({ store: { ...cache, jobs: {}, tasks: {} } }).message).toContain(
      'it has `jobs`, `tasks` but not `results`, `deliveries`, `engines`, `history`.',
    );
  });

  it('tells `engines` (a Fetcher option) where an engine of your own goes, not to check the spelling', () => {
    const message = refused({ engines: [{ name: 'folder' }] }).message;
    expect(message).toContain('`engines`: crawlkit takes no engine of your own yet');
    expect(message).toContain('new Fetcher({ engines: [yours] })');
    expect(message).not.toContain('check the spelling');
  });

  it("checks the fetcher's options too: a misspelt URL policy key never turns the SSRF protection off", () => {
    const policy = refused({ urlPolicy: { allowPrivateNetwork: false } });
    expect(policy.code).toBe('INVALID_OPTION');
    expect(policy.message).toContain('unknown option `urlPolicy.allowPrivateNetwork` (check the spelling)');
    expect(refused({ browser: { maxPagesPerBrowser: 0 } }).message).toMatch(/`browser.maxPagesPerBrowser`.*got `0`/);
    expect(refused({ browser: { smartWait: { domIdle: 5 } } }).message).toContain('`browser.smartWait.domIdle`');
    expect(refused({ browser: { wsEndpoint: 'ws://127.0.0.1:9222', args: [] } }).message).toMatch(
      /`browser.args`: `args` applies to a Chromium crawlkit launches/,
    );
    expect(refused({ http: { limits: { maxBodyByte: 1 } } }).message).toContain('`http.limits.maxBodyByte`');
    expect(refused({ http: { urlPolicy: {} } }).message).toContain('`http.urlPolicy`');
    expect(refused({ proxies: { basic: ['not a url'] } }).message).toMatch(/`proxies.basic.0`.*proxy URL/);
    expect(refused({ urlPolicy: { allowedPorts: [70_000] } }).message).toContain('`urlPolicy.allowedPorts.0`');
  });

  it('checks the language model settings', () => {
    const model = { specificationVersion: 'v3', provider: 'test', modelId: 'm' };
    expect(refused({ llm: { model, maxInputTokens: 0 } }).message).toContain('`llm.maxInputTokens`');
    expect(refused({ llm: { model, temprature: 0.5 } }).message).toContain('`llm.temprature`');
    expect(refused({ llm: { maxInputTokens: 10 } }).message).toContain('`llm.model`');
  });

  it('accepts every documented option', async () => {
    const ck = new Crawlkit({
      storeDir: './unused',
      store: 'memory',
      engine: 'http',
      concurrency: 2,
      timeoutMs: 5_000,
      robotsTimeoutMs: 2_000,
      extractionBudgetMs: 1_000,
      browser: { maxPagesPerBrowser: 2 },
      proxies: { basic: ['http://127.0.0.1:9'] },
      urlPolicy: 'strict',
      http: {},
      webhooks: { secret: 's', timeoutMs: 1, maxAttempts: 1, retryDelayMs: 1, maxRetryDelayMs: 1 },
      resumeJobs: false,
      cache: { maxBytes: 1024 },
      jobResultTtlMs: 1_000,
      logger: console,
    });
    await ck.close();
  });
});
