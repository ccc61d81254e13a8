import { validateCrawlPatterns } from '@crawlkit/frontier';
import { z } from 'zod';

import { headersSchema } from './headers.js';
import { timeoutSchema } from './timeout.js';
import {
  integrationSchema,
  refineRecord,
  refineScrapeOptions,
  resolveScrapeOptions,
  scrapeOptionsSchema,
  scrapeOptionsShape,
  threatProtectionSchema,
  urlSchema,
  type PreprocessedScrapeFields,
  type ScrapeOptionsInput,
} from './scrape-options.js';

export const WEBHOOK_EVENTS = ['completed', 'failed', 'page', 'started'] as const;

/**
 * A webhook's address: any http(s) URL (reference §16, "valid URL"). Not the page URL rule (`urlSchema`): a receiver
 * is often a Compose service or an intranet name without a dot. The message names the field, since a crawl body has
 * two URLs.
 */
const webhookUrlSchema = z.string().transform((value, ctx) => {
  let protocol = '';
  try {
    protocol = new URL(value.trim()).protocol;
  } catch {
    // left empty: refused below
  }
  if (protocol === 'http:' || protocol === 'https:') return value.trim();
  ctx.addIssue({
    code: 'custom',
    message: `webhook.url: expected an http:// or https:// address for the webhook, got ${JSON.stringify(value)}`,
  });
  return z.NEVER;
});

const webhookObjectSchema = z.strictObject({
  url: webhookUrlSchema,
  headers: headersSchema('webhook header')
    .default({})
    .refine((h) => !Object.keys(h).some((k) => k.toLowerCase() === 'x-firecrawl-signature'), {
      message: 'The following headers are not allowed: x-firecrawl-signature',
    }),
  metadata: z.record(z.string(), z.string()).default({}),
  events: z.array(z.enum(WEBHOOK_EVENTS)).default([...WEBHOOK_EVENTS]),
});

/** `webhook` as a URL string or an object (reference §16). */
export const webhookSchema = z.preprocess((v) => (typeof v === 'string' ? { url: v } : v), webhookObjectSchema);
export type Webhook = z.output<typeof webhookSchema>;
export type WebhookInput = string | z.input<typeof webhookObjectSchema>;

/**
 * Each pattern as the crawl compiles it (`validateCrawlPatterns`): JavaScript's syntax, run by a linear-time engine
 * (or `RegExp` when it cannot backtrack for long).
 */
function checkRegexes(patterns: string[] | undefined, path: string, ctx: z.RefinementCtx) {
  for (const [i, pattern] of (patterns ?? []).entries()) {
    const refused = validateCrawlPatterns([pattern]);
    if (refused) ctx.addIssue({ code: 'custom', message: refused.message, path: [path, i] });
  }
}

/**
 * A crawl's `delay`: seconds between two pages, at most 60 (upstream's rule). firecrawl-cli documents its `--delay`
 * in milliseconds and sends the number as it is, so the refusal says which unit the value is read in.
 */
const crawlDelaySchema = z
  .number()
  .positive()
  .superRefine((seconds, ctx) => {
    if (seconds <= 60) return;
    ctx.addIssue({
      code: 'custom',
      message:
        `delay is in seconds, at most 60; got ${seconds}. ` +
        `For ${seconds} milliseconds between pages, send delay: ${seconds / 1000}.`,
    });
  });

export const crawlerOptionsShape = {
  includePaths: z.array(z.string()).default([]),
  excludePaths: z.array(z.string()).default([]),
  maxDiscoveryDepth: z.number().int().min(0).optional(),
  limit: z.number().int().positive().default(10_000),
  crawlEntireDomain: z.boolean().default(false),
  allowExternalLinks: z.boolean().default(false),
  allowSubdomains: z.boolean().default(false),
  ignoreRobotsTxt: z.boolean().default(false),
  sitemap: z.enum(['skip', 'include', 'only']).default('include'),
  deduplicateSimilarURLs: z.boolean().default(true),
  ignoreQueryParameters: z.boolean().default(false),
  regexOnFullURL: z.boolean().default(false),
  delay: crawlDelaySchema.optional(),
  robotsUserAgent: z.string().min(1).optional(),
};

/** A date, or a date and time with an optional zone, as ISO 8601 writes them (Date.parse reads much more: `1.5`). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export const crawlRequestSchema = z
  .strictObject({
    url: urlSchema,
    prompt: z.string().max(10_000).optional(),
    ...crawlerOptionsShape,
    maxConcurrency: z.number().int().positive().optional(),
    scrapeOptions: scrapeOptionsSchema.default(() => scrapeOptionsSchema.parse({})),
    webhook: webhookSchema.optional(),
    zeroDataRetention: z.boolean().default(false),
    /**
     * crawlkit's own: write every response of the job (pages, redirects, robots.txt and sitemaps; in the browser the
     * document and its sub-resources) to a WARC file, each URL once; the status says where (`warcFile`). Pages are
     * fetched, not served from the page cache. `engine: 'replay'` serves the file again with no network.
     * @default false
     */
    record: z.boolean().default(false),
    /** crawlkit's own: report each page against the lineage's previous completed run (`metadata.crawlChange`). */
    changes: z.boolean().default(false),
    /** crawlkit's own: the lineage of a change feed by name (implies `changes`); else the same seed and options. */
    tag: z.string().min(1).max(256).optional(),
    /**
     * crawlkit's own (Cloudflare's crawl names it so): an ISO 8601 date or time; pages whose sitemap `<lastmod>` is
     * older are not crawled (pages without one are).
     */
    modifiedSince: z
      .string()
      .refine((v) => ISO_DATE_TIME.test(v.trim()) && !Number.isNaN(Date.parse(v)), {
        message: 'Expected an ISO 8601 date or time such as 2026-01-31 or 2026-01-31T12:00:00Z',
      })
      .optional(),
    origin: z.string().default('api'),
    integration: integrationSchema,
  })
  .superRefine((o, ctx) => {
    checkRegexes(o.includePaths, 'includePaths', ctx);
    checkRegexes(o.excludePaths, 'excludePaths', ctx);
    refineRecord(o, o.scrapeOptions, ctx);
    if (o.zeroDataRetention && (o.changes || o.tag !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [o.changes ? 'changes' : 'tag'],
        message:
          'A change feed keeps a hash of each page in the store, which zeroDataRetention forbids: drop one of them.',
      });
    }
    if (o.modifiedSince !== undefined && (o.changes || o.tag !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['modifiedSince'],
        message:
          'modifiedSince leaves pages out, which a change feed would report removed; with a feed an unchanged page ' +
          'costs a 304 anyway: drop modifiedSince.',
      });
    }
  });

export type CrawlRequestInput = Omit<z.input<typeof crawlRequestSchema>, 'webhook' | 'scrapeOptions'> & {
  webhook?: WebhookInput;
  scrapeOptions?: ScrapeOptionsInput;
};
export type CrawlRequest = z.output<typeof crawlRequestSchema>;
export type CrawlerOptions = Pick<CrawlRequest, keyof typeof crawlerOptionsShape>;

const uuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
  message: 'must be a UUID',
});

/** Batch body; `urls` are validated one by one by the batch endpoint, because `ignoreInvalidURLs` decides how. */
export const batchScrapeRequestSchema = z
  .strictObject({
    ...scrapeOptionsShape,
    urls: z.array(z.string()).min(1, { message: 'urls must contain at least one URL' }),
    webhook: webhookSchema.optional(),
    appendToId: uuidSchema.optional(),
    ignoreInvalidURLs: z.boolean().optional(),
    maxConcurrency: z.number().int().positive().optional(),
    zeroDataRetention: z.boolean().default(false),
    /**
     * crawlkit's own: write every response of the job (pages, redirects, robots.txt and sitemaps; in the browser the
     * document and its sub-resources) to a WARC file, each URL once; the status says where (`warcFile`). Pages are
     * fetched, not served from the page cache. `engine: 'replay'` serves the file again with no network.
     * @default false
     */
    record: z.boolean().default(false),
    origin: z.string().default('api'),
    integration: integrationSchema,
  })
  .superRefine((o, ctx) => {
    refineScrapeOptions(o, ctx);
    refineRecord(o, o, ctx);
  })
  .transform((o) => resolveScrapeOptions(o));

export type BatchScrapeRequestInput = Omit<
  z.input<typeof batchScrapeRequestSchema>,
  'webhook' | keyof PreprocessedScrapeFields
> &
  PreprocessedScrapeFields & { webhook?: WebhookInput };
export type BatchScrapeRequest = z.output<typeof batchScrapeRequestSchema>;

export const mapRequestSchema = z
  .strictObject({
    url: urlSchema,
    search: z.string().optional(),
    sitemap: z.enum(['only', 'include', 'skip']).default('include'),
    includeSubdomains: z.boolean().default(true),
    ignoreQueryParameters: z.boolean().default(true),
    limit: z.number().int().min(1).max(100_000).default(5_000),
    timeout: timeoutSchema.optional(),
    location: scrapeOptionsShape.location,
    headers: scrapeOptionsShape.headers,
    // Accepted for compatibility with crawl options (reference §15). crawlkit applies the path patterns
    // (`includePaths`, `excludePaths`, `regexOnFullURL`) to the links it lists; upstream ignores them.
    includePaths: z.array(z.string()).optional(),
    excludePaths: z.array(z.string()).optional(),
    maxDiscoveryDepth: z.number().int().min(0).optional(),
    crawlEntireDomain: z.boolean().optional(),
    allowExternalLinks: z.boolean().optional(),
    allowSubdomains: z.boolean().optional(),
    ignoreRobotsTxt: z.boolean().optional(),
    deduplicateSimilarURLs: z.boolean().optional(),
    regexOnFullURL: z.boolean().optional(),
    delay: z.number().positive().optional(),
    filterByPath: z.boolean().default(true),
    useIndex: z.boolean().default(true),
    ignoreCache: z.boolean().default(false),
    useMock: z.string().optional(),
    // The 2026 map options: the threat lists apply to the URL mapped, the audit log does not exist locally.
    threatProtection: threatProtectionSchema.optional(),
    auditMetadata: z.strictObject({ username: z.string() }).optional(),
    origin: z.string().default('api'),
    integration: integrationSchema,
  })
  .superRefine((o, ctx) => {
    checkRegexes(o.includePaths, 'includePaths', ctx);
    checkRegexes(o.excludePaths, 'excludePaths', ctx);
  });

export type MapRequestInput = z.input<typeof mapRequestSchema>;
export type MapRequest = z.output<typeof mapRequestSchema>;

export const crawlParamsPreviewSchema = z.strictObject({
  url: urlSchema,
  prompt: z.string().min(1).max(10_000),
  // The SDKs add `origin` to every body (reference §1).
  origin: z.string().default('api'),
  integration: integrationSchema,
});

export const paginationSchema = z.strictObject({
  skip: z.number().int().min(0).default(0),
  limit: z.number().int().positive().max(10_000).default(100),
});

export { uuidSchema };
