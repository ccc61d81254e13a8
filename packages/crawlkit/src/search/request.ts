/** The body of `POST /v2/search` (`ck.search()`), as upstream's v2 API and its SDK send it. */
import { MAX_QUERY_LENGTH } from '@crawlkit/store';
import { siteHostname } from '@crawlkit/options/site-host';
import { z } from 'zod';

import { integrationSchema, scrapeOptionsSchema, type ScrapeOptionsInput } from '../v2/scrape-options.js';
import { timeoutSchema } from '../v2/timeout.js';
import { parseTimeFilter } from './time-filter.js';

/** Where results come from: upstream's `web`, `news`, `images`, and crawlkit's own `local` (the pages it stored). */
export const SEARCH_SOURCES = ['web', 'news', 'images', 'local'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

/** Upstream's catalogue of provider tools: accepted (firecrawl-mcp asks it with a key) and answered by nothing. */
const sourceSchema = z.preprocess(
  (v) => (typeof v === 'object' && v !== null && 'type' in v ? v.type : v),
  z.enum([...SEARCH_SOURCES, 'alexandria'] as const, { error: `Each source is one of ${SEARCH_SOURCES.join(', ')}` }),
);

/** A domain as the filters compare it: its host name, lower-cased, without scheme, path or `www.`. */
export function normalizeDomain(domain: string): string {
  return siteHostname(
    domain
      .trim()
      .replace(/^https?:\/\//i, '')
      .replace(/\/.*$/, ''),
  );
}

/** Whether a normalised domain is a host name. */
export const isDomain = (domain: string) => /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(domain);

const domainSchema = z
  .string()
  .transform(normalizeDomain)
  .refine(isDomain, { error: 'A domain is a host name such as example.com' });

/** Domains a filter takes: far beyond a hand-written list, within what one query of the store can hold. */
export const MAX_FILTER_DOMAINS = 100;

const domainsSchema = (field: string) =>
  z.array(domainSchema).superRefine((domains, ctx) => {
    if (domains.length > MAX_FILTER_DOMAINS) {
      ctx.addIssue({
        code: 'custom',
        message: `\`${field}\` takes at most ${MAX_FILTER_DOMAINS} domains; got ${domains.length}.`,
      });
    }
  });

export const searchRequestSchema = z
  .strictObject({
    query: z
      .string()
      .trim()
      .min(1, { error: 'The query is empty. Send the words to look for.' })
      .max(MAX_QUERY_LENGTH, { error: `A query has at most ${MAX_QUERY_LENGTH} characters. Search for fewer words.` }),
    /** @default 5 results, at most 100 */
    limit: z.number().int().min(1).max(100).default(5),
    sources: z.array(sourceSchema).min(1).default(['web']),
    /** Accepted for upstream's SDK; a local search has no categories (a warning says so). */
    categories: z.array(z.unknown()).optional(),
    /** Accepted for firecrawl-mcp (a search engine's own filter string); not read. */
    filter: z.string().optional(),
    includeDomains: domainsSchema('includeDomains').optional(),
    excludeDomains: domainsSchema('excludeDomains').optional(),
    /** Time filter: `qdr:h|d|w|m|y` (optionally with a count, `qdr:d3`) or `cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY`. */
    tbs: z
      .string()
      .optional()
      .refine((t) => t === undefined || parseTimeFilter(t, 0) !== undefined, {
        error:
          'tbs is qdr:h, qdr:d, qdr:w, qdr:m or qdr:y (optionally with a count, qdr:d3), or cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY (days that exist, cd_min not after cd_max)',
      }),
    /** Geo-targeting, for a web search provider; a search of the stored pages is not narrowed (a warning says so). */
    location: z.string().optional(),
    /** As `location`: a provider's country code. */
    country: z.string().optional(),
    /** Milliseconds for the whole search (and its scrapes). @default 60000 */
    timeout: timeoutSchema.default(60_000),
    ignoreInvalidURLs: z.boolean().default(false),
    /** Local results carry the passages of their text that match the query. @default true */
    highlights: z.boolean().default(true),
    scrapeOptions: scrapeOptionsSchema.optional(),
    domainTools: z.boolean().optional(),
    toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
    enterprise: z.array(z.enum(['default', 'anon', 'zdr'])).optional(),
    threatProtection: z.unknown().optional(),
    origin: z.string().default('api'),
    integration: integrationSchema,
  })
  .superRefine((o, ctx) => {
    if (o.includeDomains?.length && o.excludeDomains?.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['excludeDomains'],
        message: 'includeDomains and excludeDomains cannot both be specified',
      });
    }
  });

export type SearchRequestInput = Omit<z.input<typeof searchRequestSchema>, 'scrapeOptions'> & {
  scrapeOptions?: ScrapeOptionsInput;
};
export type SearchRequest = z.output<typeof searchRequestSchema>;
