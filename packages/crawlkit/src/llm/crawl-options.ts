import { validateCrawlPatterns } from '@crawlkit/frontier';
import type { JsonSchema } from './schema.js';

/** Crawler options a model may generate from a crawl `prompt` (reference §13.5). */
export interface GeneratedCrawlerOptions {
  includePaths?: string[];
  excludePaths?: string[];
  maxDiscoveryDepth?: number;
  crawlEntireDomain?: boolean;
  allowSubdomains?: boolean;
  allowExternalLinks?: boolean;
  sitemap?: 'include' | 'skip' | 'only';
  ignoreQueryParameters?: boolean;
  limit?: number;
  delay?: number;
}

export const GENERATED_OPTION_KEYS = [
  'includePaths',
  'excludePaths',
  'maxDiscoveryDepth',
  'crawlEntireDomain',
  'allowSubdomains',
  'allowExternalLinks',
  'sitemap',
  'ignoreQueryParameters',
  'limit',
  'delay',
] as const satisfies readonly (keyof GeneratedCrawlerOptions)[];

/** What the model must return; unknown keys are dropped afterwards rather than failing the answer. */
export const CRAWLER_OPTIONS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    includePaths: { type: 'array', items: { type: 'string' } },
    excludePaths: { type: 'array', items: { type: 'string' } },
    maxDiscoveryDepth: { type: 'integer', minimum: 0 },
    crawlEntireDomain: { type: 'boolean' },
    allowSubdomains: { type: 'boolean' },
    allowExternalLinks: { type: 'boolean' },
    sitemap: { type: 'string', enum: ['include', 'skip', 'only'] },
    ignoreQueryParameters: { type: 'boolean' },
    limit: { type: 'integer', minimum: 1 },
    delay: { type: 'number', exclusiveMinimum: 0, maximum: 60 },
  },
};

/** Every include/exclude pattern must compile as the crawl runs it (`validateCrawlPatterns`). */
export function checkPatterns(value: unknown): string | undefined {
  const options = value as GeneratedCrawlerOptions;
  for (const key of ['includePaths', 'excludePaths'] as const) {
    const refused = validateCrawlPatterns(options[key] ?? []);
    if (refused) {
      return `${key} contains an invalid regular expression ${JSON.stringify(refused.pattern)} (${refused.message})`;
    }
  }
  return undefined;
}

/** Keeps only the known option keys (models add others, e.g. `maxDepth`, which maps to `maxDiscoveryDepth`). */
export function pickGeneratedOptions(value: Record<string, unknown>): GeneratedCrawlerOptions {
  const out: Record<string, unknown> = {};
  for (const key of GENERATED_OPTION_KEYS) {
    if (value[key] !== undefined && value[key] !== null) out[key] = value[key];
  }
  if (out.maxDiscoveryDepth === undefined && Number.isInteger(value.maxDepth) && (value.maxDepth as number) >= 0) {
    out.maxDiscoveryDepth = value.maxDepth;
  }
  return out;
}

/** Generated options under the caller's: a key the caller sent (and did not send as null) wins. */
export function mergeCrawlerOptions<T extends Record<string, unknown>>(
  generated: GeneratedCrawlerOptions,
  explicit: T,
): T & GeneratedCrawlerOptions {
  const merged: Record<string, unknown> = { ...generated };
  for (const [key, value] of Object.entries(explicit)) {
    if (value !== undefined && value !== null) merged[key] = value;
  }
  return merged as T & GeneratedCrawlerOptions;
}
