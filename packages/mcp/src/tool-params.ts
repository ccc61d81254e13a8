/**
 * The tools' input schemas, with firecrawl-mcp's field names (3.26), so agent prompts written for it work unchanged.
 * They only shape the call: the engine checks every value as `POST /v2/*` does and answers the v2 error shape.
 */
import { isDeepStrictEqual } from 'node:util';

import { NAMED_FORMATS, type FormatType } from 'crawlkit';
import { z } from 'zod';

/**
 * Every format `scrape()` takes by name (crawlkit's own list, so that a new format is offered here too), and `query`,
 * which `queryOptions` builds.
 */
const FORMATS: readonly FormatType[] = [...NAMED_FORMATS, 'query'];

/**
 * `shape` with each optional field taking `null` too, read as absent (`withoutNulls`): hosts that give a model tool
 * schemas in a strict function-calling form (every field required, the optional ones nullable) have it send `null`
 * for each field it does not use, which firecrawl-mcp's schemas refuse.
 */
export function nullable<T extends z.ZodRawShape>(shape: T): Nullable<T> {
  return Object.fromEntries(
    Object.entries(shape).map(([key, field]) => {
      if (!(field instanceof z.ZodOptional)) return [key, field];
      // The description stays at the top of the field, where hosts show it (not in the first branch of its anyOf).
      return [key, field.description ? field.nullable().describe(field.description) : field.nullable()];
    }),
  ) as Nullable<T>;
}

/**
 * `text` and the value the engine takes when the field is left out, as the tool schema tells a model (each is
 * checked against the engine's own default by test/mcp-tool-schemas).
 */
export const byDefault = (text: string, value: unknown): string => `${text} Default: ${JSON.stringify(value)}.`;

export type Nullable<T extends z.ZodRawShape> = {
  [K in keyof T]: T[K] extends z.ZodOptional<z.ZodType> ? z.ZodNullable<T[K]> : T[K];
};

/** `value` without its `null` fields (one level: a json format's schema keeps its own). */
export function withoutNulls<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null)) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}

/**
 * A v2 action as firecrawl-mcp describes one (its fields in one object, each used by some types), with the v2
 * fields it leaves out; the engine checks each action against its type.
 */
const actionFields = {
  type: z.enum(['wait', 'click', 'write', 'press', 'scroll', 'screenshot', 'scrape', 'executeJavascript', 'pdf']),
  milliseconds: z.number().optional().describe('wait: how long (or selector)'),
  selector: z.string().optional().describe('wait: the element to wait for; click, scroll: the element'),
  all: z.boolean().optional().describe('click: every element the selector matches'),
  text: z.string().optional().describe('write: the text typed into the focused element'),
  key: z.string().optional().describe('press: the key (Enter, Tab, ArrowDown, ...)'),
  direction: z.enum(['up', 'down']).optional().describe('scroll'),
  script: z.string().optional().describe('executeJavascript: its value is returned in actions.javascriptReturns'),
  fullPage: z.boolean().optional().describe('screenshot'),
  quality: z.number().optional().describe('screenshot: JPEG quality, 1-100'),
  viewport: z.object({ width: z.number(), height: z.number() }).optional().describe('screenshot'),
  format: z.string().optional().describe('pdf: paper format (Letter, A4, ...)'),
  landscape: z.boolean().optional().describe('pdf'),
  scale: z.number().optional().describe('pdf'),
};

/** firecrawl-mcp's scrape options (without `url`). */
const scrapeFields = {
  formats: z
    .array(z.enum(FORMATS))
    .optional()
    .describe(
      byDefault(
        'What to return; json takes jsonOptions, query takes queryOptions; product and jobPosting read what a shop ' +
          'or job page declares in its structured data (no model).',
        ['markdown'],
      ),
    ),
  jsonOptions: z.object({ prompt: z.string().optional(), schema: z.record(z.string(), z.any()).optional() }).optional(),
  queryOptions: z
    .object({ prompt: z.string().max(10_000), mode: z.enum(['directQuote', 'freeform']).optional() })
    .optional(),
  screenshotOptions: z
    .object({
      fullPage: z.boolean().optional(),
      quality: z.number().optional(),
      viewport: z.object({ width: z.number(), height: z.number() }).optional(),
    })
    .optional(),
  parsers: z
    .array(z.enum(['pdf']))
    .optional()
    .describe(byDefault('pdf reads a PDF as text.', ['pdf'])),
  pdfOptions: z.object({ maxPages: z.number().int().min(1).max(10_000).optional() }).optional(),
  onlyMainContent: z
    .boolean()
    .optional()
    .describe(byDefault('The main content only, without navigation, headers and footers.', true)),
  /**
   * crawlkit's own (not firecrawl-mcp's): `rawHtml: true` writes what markdown cannot express as sanitised HTML;
   * `captions: true` keeps figure captions; `embeds: true` writes embeds and players as link lines.
   */
  markdownOptions: z
    .object({ rawHtml: z.boolean().optional(), captions: z.boolean().optional(), embeds: z.boolean().optional() })
    .optional()
    .describe(
      'rawHtml: true keeps what markdown cannot express (div blocks, complex tables, <u>, <del>) as HTML; ' +
        'captions: true keeps figure captions, each an italic line under its image; ' +
        'embeds: true writes embedded frames (YouTube, maps), videos and audio as link lines.',
    ),
  includeTags: z.array(z.string()).optional(),
  excludeTags: z.array(z.string()).optional(),
  waitFor: z.number().optional().describe(byDefault('Milliseconds to wait after the page loads (browser).', 0)),
  actions: z.array(z.looseObject(nullable(actionFields))).optional(),
  mobile: z.boolean().optional().describe(byDefault('Render as a phone (browser).', false)),
  skipTlsVerification: z
    .boolean()
    .optional()
    .describe(byDefault('Accept a site whose TLS certificate does not check (false with actions).', true)),
  removeBase64Images: z.boolean().optional().describe(byDefault('Drop inline base64 images from the text.', true)),
  location: z.object({ country: z.string().optional(), languages: z.array(z.string()).optional() }).optional(),
  storeInCache: z.boolean().optional().describe(byDefault("Keep the page in crawlkit's cache for later calls.", true)),
  zeroDataRetention: z.boolean().optional(),
  maxAge: z
    .number()
    .optional()
    .describe(byDefault('Milliseconds a cached copy may be old to be answered; 0 fetches the page live.', 172_800_000)),
  lockdown: z.boolean().optional().describe(byDefault('Answer from the cache only, never the network.', false)),
  proxy: z.enum(['basic', 'stealth', 'enhanced', 'auto']).optional().describe(byDefault('The proxy tier.', 'auto')),
  timeout: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "Milliseconds the scrape may take; past them it answers SCRAPE_TIMEOUT. Default: the engine's timeoutMs, " +
        '30000 unless its configuration sets another.',
    ),
};
export const scrapeParams = nullable(scrapeFields);

/** A count of entries (or characters) skipped from the first: where an answer cut or sliced reads on. */
const position = (text: string) => z.number().int().min(0).optional().describe(text);

export const scrapeShape = {
  url: z.string().url(),
  ...scrapeParams,
  /** crawlkit's own: where an answer cut for length reads on. */
  ...nullable({
    offset: position(
      'Characters of markdown, html and rawHtml skipped: reads on from where a long answer was cut (its note gives ' +
        'the offset). Default 0.',
    ),
    skip: position(
      'Entries of links and images skipped: reads on from where a long list was cut (its last entry gives the ' +
        'skip). Default 0.',
    ),
  }),
};

export const mapShape = nullable({
  url: z.string().url(),
  search: z.string().optional().describe('Words the URLs are ordered by, the best matches first.'),
  sitemap: z.enum(['include', 'skip', 'only']).optional().describe(byDefault("Use the site's sitemaps.", 'include')),
  includeSubdomains: z.boolean().optional().describe(byDefault('List the URLs of subdomains too.', true)),
  limit: z.number().optional().describe(byDefault('URLs at most.', 5_000)),
  ignoreQueryParameters: z.boolean().optional().describe(byDefault('One URL for pages differing by query.', true)),
  skip: position(
    byDefault('Links skipped from the first: an answer that leaves links out gives the skip of the next.', 0),
  ),
});

export const searchShape = nullable({
  query: z
    .string()
    .min(1)
    .describe(
      'Words to find; "quoted phrases", prefix*, -excluded, site:host. Searches the pages crawlkit stored by default.',
    ),
  limit: z.number().int().min(1).max(100).optional().describe(byDefault('Results at most, per source.', 5)),
  tbs: z.string().optional().describe('Time filter: qdr:h, qdr:d, qdr:w, qdr:m or qdr:y.'),
  filter: z.string().optional(),
  location: z.string().optional(),
  categories: z
    .array(z.union([z.string(), z.object({ type: z.string() })]))
    .optional()
    .describe("firecrawl-mcp's result categories (github, research, pdf, developer): not read locally."),
  includeDomains: z.array(z.string()).optional().describe('Only results from these domains (100 at most).'),
  excludeDomains: z.array(z.string()).optional().describe('No results from these domains (100 at most).'),
  sources: z
    .array(
      z.union([
        z.enum(['web', 'news', 'images', 'local']),
        z.object({ type: z.enum(['web', 'news', 'images', 'local']) }),
      ]),
    )
    .optional()
    .describe(byDefault('Where to search.', ['web'])),
  highlights: z.boolean().optional().describe(byDefault("Each result's matching passage.", true)),
  scrapeOptions: z.object(scrapeParams).partial().optional(),
});

export const crawlShape = nullable({
  url: z.string(),
  prompt: z
    .string()
    .optional()
    .describe(
      "Plain words the crawl's options (paths, depth, limit) are made from by the server's language model; without " +
        'a model the call answers an error saying how to give one. Options given beside it win.',
    ),
  excludePaths: z.array(z.string()).optional().describe('Regular expressions of URL paths not to crawl.'),
  includePaths: z.array(z.string()).optional().describe('Regular expressions of URL paths to crawl, and no others.'),
  maxDiscoveryDepth: z.number().optional().describe('Links followed from the first page at most. Default: no limit.'),
  sitemap: z.enum(['skip', 'include', 'only']).optional().describe(byDefault("Use the site's sitemaps.", 'include')),
  limit: z
    .number()
    .optional()
    .describe(byDefault('Pages at most: give a small one, the call waits for them all.', 10_000)),
  allowExternalLinks: z.boolean().optional().describe(byDefault('Follow links to other sites.', false)),
  allowSubdomains: z.boolean().optional().describe(byDefault('Follow links to subdomains.', false)),
  crawlEntireDomain: z
    .boolean()
    .optional()
    .describe(byDefault("Follow links outside the URL's path (its parents and siblings).", false)),
  delay: z
    .number()
    .optional()
    .describe(
      'Seconds between two requests to the site. Default: none (a robots.txt Crawl-delay is kept, up to 10 s).',
    ),
  maxConcurrency: z
    .number()
    .optional()
    .describe("Pages fetched at once at most. Default: the server's concurrency (crawlkit's --concurrency, 16)."),
  /** firecrawl-mcp's: the URL told of the crawl's events (signed with the server's webhook secret, if any). */
  webhook: z
    .string()
    .optional()
    .describe("A URL told of the crawl's events (started, each page, completed), signed when the server has a secret."),
  webhookHeaders: z.record(z.string(), z.string()).optional(),
  deduplicateSimilarURLs: z
    .boolean()
    .optional()
    .describe(byDefault('One page for URLs differing by www, scheme, trailing slash or index file.', true)),
  ignoreQueryParameters: z.boolean().optional().describe(byDefault('One page for URLs differing by query.', false)),
  scrapeOptions: z.object(scrapeParams).partial().optional(),
});

/**
 * firecrawl-mcp's batch tool of its 1.x-2.x releases (`{ urls, options }`), and the flat shape `firecrawl_scrape` has
 * (`formats` and the other scrape options beside `urls`).
 */
export const batchShape = {
  urls: z.array(z.string().url()).min(1),
  ...nullable({
    options: z
      .object(scrapeParams)
      .partial()
      .optional()
      .describe('The scrape options of every URL; they may also be given beside urls, as firecrawl_scrape takes them.'),
  }),
  ...scrapeParams,
};

type BatchArgs = ScrapeArgs & { options?: ScrapeArgs | null };

/**
 * The scrape options of a batch call, given in `options` or beside `urls` (or both), as firecrawl-mcp's arguments; an
 * option given both ways with different values is a refusal naming both (a string), not a guess.
 */
export function batchOptionsOf({ options, ...flat }: BatchArgs): ScrapeArgs | string {
  const nested: Record<string, unknown> = withoutNulls(options ?? {});
  const beside: Record<string, unknown> = withoutNulls(flat);
  const differ = Object.keys(beside).filter((key) => key in nested && !isDeepStrictEqual(beside[key], nested[key]));
  if (differ.length === 0) return { ...nested, ...beside };
  const named = differ.map((key) => `\`${key}\` and \`options.${key}\``).join(', ');
  return (
    `Invalid arguments for firecrawl_batch_scrape: ${named} are given with different values. Give each option ` +
    'once: beside urls (as firecrawl_scrape takes it) or in options.'
  );
}

export const statusShape = {
  id: z.string(),
  ...nullable({
    skip: position(
      'Pages skipped from the first: an answer that leaves pages out gives the skip of the next. Default 0.',
    ),
  }),
};

export const cancelShape = { id: z.string().describe('The id of the job, as the call that started it answered it.') };

type ScrapeArgs = Partial<{ [K in keyof typeof scrapeParams]: z.output<(typeof scrapeParams)[K]> }>;

/** firecrawl-mcp's option fields as v2 scrape options: `jsonOptions` into the json format, and so on. */
export function scrapeOptionsOf(args: ScrapeArgs): Record<string, unknown> {
  const { jsonOptions, queryOptions, screenshotOptions, pdfOptions, formats, parsers, actions, ...rest } =
    withoutNulls(args);
  const out: Record<string, unknown> = { ...rest };
  if (actions) out.actions = actions.map((action) => withoutNulls(action));
  if (formats?.length) {
    out.formats = formats.map((format) => {
      if (format === 'json') return { type: 'json', ...jsonOptions };
      if (format === 'query') return { type: 'query', ...queryOptions };
      if (format === 'screenshot' && screenshotOptions) return { type: 'screenshot', ...screenshotOptions };
      return format;
    });
  }
  if (parsers?.length)
    out.parsers = parsers.map((p) => (p === 'pdf' && pdfOptions ? { type: 'pdf', ...pdfOptions } : p));
  return out;
}
