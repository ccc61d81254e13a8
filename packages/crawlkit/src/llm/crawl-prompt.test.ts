/**
 * A crawl's `prompt`: the model turns it into crawl options from a map of the site, and the crawl runs with them.
 */
import { describe, expect, it } from 'vitest';

import type { Routes } from '../../../../fixtures/server.ts';
import type { CrawlResponse, ErrorResponse } from '../v2/types.js';
import { send, useLlmSite } from './__fixtures__/llm-site.js';

const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main>${body}</main></body></html>`;

const blogPage = (n: number) =>
  html(
    `Post ${n}`,
    `<h1>Post ${n}</h1><p>This is blog post number ${n}, written for the crawl prompt tests of crawlkit.</p>`,
  );

const routes: Routes = {
  '/llm/site': send(
    html(
      'Site',
      `<h1>Site</h1><p>Home.</p><a href="/llm/site/about">About</a><a href="/llm/site/blog">Blog</a><a href="/llm/site/blog/1">1</a>`,
    ),
  ),
  '/llm/site/about': send(
    html('About', '<h1>About</h1><p>About this site, which exists for the crawl prompt tests.</p>'),
  ),
  '/llm/site/blog': send(
    html(
      'Blog',
      `<h1>Blog</h1><p>All posts.</p><a href="/llm/site/blog/1">1</a><a href="/llm/site/blog/2">2</a><a href="/llm/site/blog/3">3</a>`,
    ),
  ),
  '/llm/site/blog/1': send(blogPage(1)),
  '/llm/site/blog/2': send(blogPage(2)),
  '/llm/site/blog/3': send(blogPage(3)),
};

const bench = useLlmSite(routes);
const engine = bench.engine.bind(bench);

describe('crawl prompt', () => {
  it('turns the prompt into options, shows both option sets and crawls with them', async () => {
    const ck = engine();
    const response = await ck.crawl({
      url: `${bench.site.url}/llm/site/blog`,
      prompt: 'Crawl the blog, 2 pages at most',
    });
    expect(response.success).toBe(true);
    const started = response as CrawlResponse;
    expect(started.promptGeneratedOptions).toEqual({ includePaths: ['/blog(/|$)'], limit: 2 });
    expect(started.finalCrawlerOptions).toMatchObject({ includePaths: ['/blog(/|$)'], limit: 2, sitemap: 'include' });
    // The model saw the site's structure from a map of it.
    expect(JSON.stringify(bench.llm.requests[0]!.body.messages)).toContain('/llm/site/blog/3');
    const finished = await ck.waitForJob(started.id);
    expect(finished).toMatchObject({ success: true, status: 'completed' });
    if (!finished.success) return;
    expect(finished.data.length).toBe(2);
  });

  it('under zero data retention, asks the model with the prompt alone: no URL of the site goes to it', async () => {
    const ck = engine();
    const response = await ck.crawl({
      url: `${bench.site.url}/llm/site/blog`,
      prompt: 'Crawl the blog, 2 pages at most',
      zeroDataRetention: true,
    });
    const started = response as CrawlResponse;
    expect(started.promptGeneratedOptions).toEqual({ includePaths: ['/blog(/|$)'], limit: 2 });
    const sent = JSON.stringify(bench.llm.requests[0]!.body.messages);
    expect(sent).toContain('Crawl the blog, 2 pages at most');
    expect(sent).not.toContain('/llm/site/blog/3');
    await ck.waitForJob(started.id);
  });

  it('crawls only the section the prompt names, starting from the home page', async () => {
    const ck = engine();
    const response = await ck.crawl({ url: `${bench.site.url}/llm/site`, prompt: 'Only the blog posts, 10 pages' });
    const started = response as CrawlResponse;
    expect(started.promptGeneratedOptions).toEqual({ includePaths: ['/blog(/|$)'], limit: 10 });
    const finished = await ck.waitForJob(started.id);
    if (!finished.success) throw new Error(finished.error);
    const urls = finished.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort();
    expect(urls).toEqual(['/llm/site/blog', '/llm/site/blog/1', '/llm/site/blog/2', '/llm/site/blog/3']);
  });

  it('lets explicitly given options win over generated ones', async () => {
    const ck = engine();
    const response = await ck.crawl({ url: `${bench.site.url}/llm/site/blog`, prompt: 'the blog, 2 pages', limit: 1 });
    const started = response as CrawlResponse;
    expect(started.promptGeneratedOptions).toMatchObject({ limit: 2 });
    expect(started.finalCrawlerOptions).toMatchObject({ limit: 1 });
    const finished = await ck.waitForJob(started.id);
    if (!finished.success) throw new Error(finished.error);
    expect(finished.data.length).toBe(1);
  });

  it('previews the generated options without crawling', async () => {
    const ck = engine();
    const preview = await ck.crawlParamsPreview({ url: `${bench.site.url}/llm/site/blog`, prompt: 'blog, 3 pages' });
    expect(preview).toEqual({
      success: true,
      data: { url: `${bench.site.url}/llm/site/blog`, includePaths: ['/blog(/|$)'], limit: 3 },
    });
  });

  it('answers 400 with the reference message when the model cannot produce options', async () => {
    const ck = engine();
    bench.llm.enqueue('no idea', 'still no idea');
    const response = await ck.crawl({ url: `${bench.site.url}/llm/site/blog`, prompt: 'something' });
    expect(response).toMatchObject({
      success: false,
      code: 'CRAWL_PROMPT_FAILED',
      error: 'Failed to process natural language prompt. Please try rephrasing or use explicit crawler options.',
    });
  });

  it("keeps the model request's own code when its server fails: no rephrasing helps a refused key", async () => {
    const ck = engine({ maxRetries: 0 });
    bench.llm.enqueue({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const response = await ck.crawl({ url: `${bench.site.url}/llm/site/blog`, prompt: 'the blog, 2 pages' });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    const { error } = response as ErrorResponse;
    expect(error).toMatch(/^The crawl prompt could not be turned into crawler options: /);
    expect(error).toContain('401');
    expect(error).not.toContain('rephrasing');
    bench.llm.enqueue({ status: 500 });
    expect(await ck.crawlParamsPreview({ url: `${bench.site.url}/llm/site/blog`, prompt: 'blog' })).toMatchObject({
      success: false,
      code: 'LLM_REQUEST_FAILED',
    });
  });

  it('ignores a blank prompt (no model call)', async () => {
    const ck = engine();
    const response = await ck.crawl({ url: `${bench.site.url}/llm/site/blog`, prompt: '  ', limit: 1 });
    expect(response.success).toBe(true);
    expect(response).not.toHaveProperty('promptGeneratedOptions');
    expect(bench.llm.requests).toHaveLength(0);
    await ck.waitForJob((response as CrawlResponse).id);
  });
});
