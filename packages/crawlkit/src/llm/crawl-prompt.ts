import type { z } from 'zod';

import { mapSite } from '../api/map.js';
import type { EngineContext } from '../context.js';
import { toErrorResponse } from '../errors.js';
import {
  crawlerOptionsShape,
  crawlParamsPreviewSchema,
  crawlRequestSchema,
  type CrawlRequest,
  type CrawlRequestInput,
} from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import type { ErrorResponse } from '../v2/types.js';
import { mergeCrawlerOptions, type GeneratedCrawlerOptions } from './crawl-options.js';

const PROMPT_FAILED =
  'Failed to process natural language prompt. Please try rephrasing or use explicit crawler options.';
/** The site map shown to the model is best effort: a slow site must not hold the crawl start for long. */
const MAP_TIMEOUT_MS = 15_000;

/** URLs of the site for the model's "WEBSITE STRUCTURE"; empty when mapping fails. */
async function siteUrls(ctx: EngineContext, url: string, includeSubdomains: boolean): Promise<string[]> {
  const limit = ctx.llm.promptMapLimit;
  if (limit === 0) return [];
  try {
    const mapped = await mapSite(ctx, { url, limit, includeSubdomains, timeout: MAP_TIMEOUT_MS });
    return mapped.success ? mapped.links.map((l) => l.url) : [];
  } catch {
    return [];
  }
}

/**
 * Generates crawler options for a prompt: maps the site, then asks the model (reference §13.5). Under zero data
 * retention the model gets the prompt and the start URL only: the site's URLs are the site's data.
 */
export async function generateCrawlerOptions(
  ctx: EngineContext,
  input: {
    url: string;
    prompt: string;
    includeSubdomains: boolean;
    zeroDataRetention?: boolean | undefined;
    signal?: AbortSignal;
  },
): Promise<{ ok: true; options: GeneratedCrawlerOptions } | { ok: false; error: ErrorResponse }> {
  const refused = ctx.llm.requireModel('crawl prompt');
  if (refused) return { ok: false, error: refused };
  const urls = input.zeroDataRetention ? [] : await siteUrls(ctx, input.url, input.includeSubdomains);
  try {
    const generated = await ctx.llm.crawlOptions({
      url: input.url,
      prompt: input.prompt,
      siteUrls: urls,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    return { ok: true, options: generated.value };
  } catch (error) {
    return { ok: false, error: promptFailure(toErrorResponse(error)) };
  }
}

/**
 * A prompt the model answered with no valid options is `CRAWL_PROMPT_FAILED` (400, upstream's words: rephrase it). A
 * model request that failed (the server refused the key, a 5xx, a timeout) is no fault of the prompt: it keeps its own
 * code and status (`LLM_REQUEST_FAILED` 502) and says what the server did, where "try rephrasing" sent the user to
 * reword a prompt the model never read.
 */
function promptFailure(cause: ErrorResponse): ErrorResponse {
  if (cause.code === undefined || cause.code === 'LLM_EXTRACTION_FAILED') {
    return { success: false, code: 'CRAWL_PROMPT_FAILED', error: PROMPT_FAILED, details: { cause: cause.error } };
  }
  return { ...cause, error: `The crawl prompt could not be turned into crawler options: ${cause.error}` };
}

const CRAWLER_KEYS = Object.keys(crawlerOptionsShape) as (keyof typeof crawlerOptionsShape)[];

export interface PromptedCrawl {
  request: CrawlRequest;
  promptGeneratedOptions: GeneratedCrawlerOptions;
  finalCrawlerOptions: Record<string, unknown>;
}

/**
 * Applies a crawl `prompt`: generated options fill the keys the caller did not send (explicit options win), and the
 * merged body is validated again. Returns `undefined` when the request has no (non-blank) prompt.
 */
export async function applyCrawlPrompt(
  ctx: EngineContext,
  body: CrawlRequestInput,
  request: CrawlRequest,
): Promise<PromptedCrawl | ErrorResponse | undefined> {
  if (request.prompt === undefined || request.prompt.trim() === '') return undefined;
  const generated = await generateCrawlerOptions(ctx, {
    url: request.url,
    prompt: request.prompt,
    includeSubdomains: false,
    zeroDataRetention: request.zeroDataRetention,
  });
  if (!generated.ok) return generated.error;
  const parsed = parseBody(crawlRequestSchema, mergeCrawlerOptions(generated.options, body as Record<string, unknown>));
  if (!parsed.ok) {
    return {
      success: false,
      code: 'CRAWL_PROMPT_FAILED',
      error: PROMPT_FAILED,
      details: { cause: parsed.error.error, promptGeneratedOptions: generated.options },
    };
  }
  const finalCrawlerOptions: Record<string, unknown> = {};
  for (const key of CRAWLER_KEYS) {
    if (parsed.value[key] !== undefined) finalCrawlerOptions[key] = parsed.value[key];
  }
  return { request: parsed.value, promptGeneratedOptions: generated.options, finalCrawlerOptions };
}

export type CrawlParamsPreviewInput = z.input<typeof crawlParamsPreviewSchema>;

/** `POST /v2/crawl/params-preview`: the options a prompt generates, with the URL they apply to. */
export interface CrawlParamsPreviewResponse {
  success: true;
  data: { url: string } & GeneratedCrawlerOptions;
  warning?: string;
}

/** Runs the prompt → options generation without crawling (the site map includes subdomains, as upstream). */
export async function previewCrawlParams(
  ctx: EngineContext,
  body: CrawlParamsPreviewInput,
  signal?: AbortSignal,
): Promise<CrawlParamsPreviewResponse | ErrorResponse> {
  const parsed = parseBody(crawlParamsPreviewSchema, body);
  if (!parsed.ok) {
    return { ...parsed.error, error: `Invalid request parameters: ${parsed.error.error}` };
  }
  const generated = await generateCrawlerOptions(ctx, {
    url: parsed.value.url,
    prompt: parsed.value.prompt,
    includeSubdomains: true,
    ...(signal ? { signal } : {}),
  });
  if (!generated.ok) return generated.error;
  return { success: true, data: { url: parsed.value.url, ...generated.options } };
}
