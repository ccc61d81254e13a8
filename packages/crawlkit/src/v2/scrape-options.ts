import { actionLimitProblems, actionSchema } from '@crawlkit/actions/schema';
import { isCountryCode } from '@crawlkit/fetcher';
import { z } from 'zod';

import { CLEAN_CONTENT_SELECTORS } from '../formats/clean-content.js';
import { emptySchemaMessage, isEmptyConvertedSchema, isSchemalessDictionary } from '../formats/json.js';
import { findFormat, formatSchema, type FormatInput } from './formats.js';
import { headersSchema } from './headers.js';
import { parserSchema } from './parsers.js';
import { timeoutSchema } from './timeout.js';
import { checkV2Url } from './url.js';

export type { Parser } from './parsers.js';

/** Cache age accepted by default: two days (reference §3.1). */
export const DEFAULT_MAX_AGE_MS = 172_800_000;

/**
 * `integration` names the tool that sent the request. Upstream's enum keeps growing (`cli`, `hermes`, `gstack`,
 * `prometheus` in 2026) and it only labels usage, so any string is accepted; an empty one counts as none.
 */
export const integrationSchema = z
  .string()
  .max(256)
  .nullish()
  .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v));

/** A URL field: `http://` is prepended when the scheme is missing, then the v2 URL rules apply. */
export const urlSchema = z.string().transform((value, ctx) => {
  const check = checkV2Url(value);
  if (check.ok) return check.url;
  ctx.addIssue({ code: 'custom', message: check.message });
  return z.NEVER;
});

const IFRAME_TOKEN = /(^|[\s,>+~(])iframe(?=$|[\s.#[:,>+~)])/g;

/** Rewrites a standalone `iframe` token of a selector (reference §10.4). */
export function rewriteIframeSelector(selector: string): string {
  return selector.replace(IFRAME_TOKEN, '$1div[data-original-tag="iframe"]');
}

const tagsSchema = z.array(z.string()).transform((tags) => tags.map(rewriteIframeSelector));

const redactPiiSchema = z.union([
  z.boolean(),
  z.strictObject({
    mode: z.enum(['accurate', 'aggressive', 'fast']).optional(),
    entities: z.array(z.enum(['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'])).optional(),
    replaceStyle: z.enum(['tag', 'mask', 'remove']).optional(),
  }),
]);

const hostList = z.array(z.string().min(1)).max(1000);

/** Upstream's per-request threat protection: its lists apply locally (`threat-protection.ts`), its scans cannot. */
export const threatProtectionSchema = z.strictObject({
  mode: z.enum(['off', 'manual-only', 'normal', 'zscaler']).optional(),
  riskScoreThreshold: z.number().int().min(0).max(100).optional(),
  blacklist: hostList.optional(),
  whitelist: hostList.optional(),
  blockedTlds: hostList.optional(),
  failurePolicy: z.enum(['open', 'closed']).optional(),
});
export type ThreatProtection = z.output<typeof threatProtectionSchema>;

export const locationSchema = z.strictObject({
  country: z
    .string()
    .refine(isCountryCode, { message: 'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.' })
    .transform((c) => c.toLowerCase())
    .default('us-generic'),
  languages: z
    .array(z.string().min(1))
    .transform((languages, ctx) =>
      languages.map((language, i) => {
        const tag = canonicalLocale(language);
        if (tag === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [i],
            message: `location.languages[${i}] is a language tag such as "en", "en-US" or "fr-CH"; got ${JSON.stringify(language)}`,
          });
        }
        return tag ?? language;
      }),
    )
    .optional(),
});

/**
 * A language tag in its canonical form (`en_us` is `en-US`), or undefined for what is none: the browser refuses to
 * set such a locale, which would fail the page instead of the request.
 */
function canonicalLocale(language: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(language.trim().replaceAll('_', '-'))[0];
  } catch {
    return undefined;
  }
}

/** crawlkit's own: how the `markdown` format (and what reads it) is written. */
export const markdownOptionsSchema = z.strictObject({
  /**
   * Raw-HTML mode: what markdown has no syntax for (`<div>` blocks, tables with spans or blocks in cells, `<del>`,
   * `<u>`, custom elements, empty elements) is written as HTML inside the markdown, sanitised like the `html`
   * format and without event handlers or `javascript:` URLs; everything markdown can express stays markdown. Off by
   * default: the default markdown is plain, for people and language models.
   * @default false
   */
  rawHtml: z.boolean().default(false),
  /**
   * Keep figure captions (`<figcaption>`) in the main content, each an italic line under its image. Off by default:
   * the main content drops captions (they describe the image, which stays with its alt text).
   * @default false
   */
  captions: z.boolean().default(false),
  /**
   * Write an `<iframe>` with a `src` as a link line (`[title or host](src)`) and a `<video>` or `<audio>` with a
   * source as `[label](src)`, kept in the main content. Off by default: upstream's markdown leaves them out.
   * @default false
   */
  embeds: z.boolean().default(false),
});

/** `waitFor` given a selector (as Puppeteer's `waitForSelector` takes): v2 waits for one with an action. */
const WAIT_FOR_IS_MS =
  "a time in milliseconds, not a selector: to wait for an element, add the action { type: 'wait', selector: '…' }";

/** The scrape options shared by scrape, batch (top level) and crawl (`scrapeOptions`), with their v2 defaults. */
export const scrapeOptionsShape = {
  formats: z.array(formatSchema).default([{ type: 'markdown' }]),
  onlyMainContent: z.boolean().default(true),
  includeTags: tagsSchema.optional(),
  excludeTags: tagsSchema.optional(),
  headers: headersSchema('header').optional(),
  waitFor: z
    .number({
      error: (issue) =>
        typeof issue.input === 'string' && !/^\s*\d+\s*$/.test(issue.input) ? WAIT_FOR_IS_MS : undefined,
    })
    .int()
    .min(0)
    .max(60_000)
    .default(0),
  mobile: z.boolean().default(false),
  skipTlsVerification: z.boolean().optional(),
  timeout: timeoutSchema.optional(),
  parsers: z.array(parserSchema).default([{ type: 'pdf' }]),
  actions: z.array(actionSchema).optional(),
  location: locationSchema.optional(),
  removeBase64Images: z.boolean().default(true),
  /**
   * crawlkit's own: how the markdown is written (`{ rawHtml, captions, embeds }`).
   * @default { rawHtml: false, captions: false, embeds: false }
   */
  markdownOptions: markdownOptionsSchema.optional(),
  blockAds: z.boolean().default(true),
  proxy: z
    .enum(['basic', 'stealth', 'auto', 'enhanced'])
    .transform((p) => (p === 'enhanced' ? 'stealth' : p))
    .default('auto'),
  maxAge: z.number().int().min(0).default(DEFAULT_MAX_AGE_MS),
  minAge: z.number().int().min(0).optional(),
  storeInCache: z.boolean().default(true),
  fastMode: z.boolean().default(false),
  lockdown: z.boolean().default(false),
  useMock: z.string().optional(),
  /** The page without navigation, ads and cookie banners, not cut to its main content (`clean-content.ts`). */
  onlyCleanContent: z.boolean().optional(),
  // Accepted so that no request upstream takes is refused; what cannot exist locally gets a document warning
  // (`formats/unavailable.ts`).
  redactPII: redactPiiSchema.optional(),
  profile: z.strictObject({ name: z.string().min(1), saveChanges: z.boolean().optional() }).optional(),
  threatProtection: threatProtectionSchema.optional(),
  auditMetadata: z.strictObject({ username: z.string() }).optional(),
  domainTools: z.boolean().optional(),
  toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
  __experimental_omce: z.unknown().optional(),
};

interface RefinableScrapeOptions {
  formats: { type: string; schema?: Record<string, unknown> }[];
  waitFor: number;
  timeout?: number | undefined;
  actions?: { type: string; milliseconds?: number | undefined; selector?: string | undefined }[] | undefined;
}

/** The options of a request that ask for the page cache only: `lockdown`, `minAge`. */
interface CacheOnlyOptions {
  lockdown: boolean;
  minAge?: number | undefined;
}

/**
 * `record` writes the job's responses to a file, which `zeroDataRetention` forbids; and it fetches every page, which
 * `lockdown` and `minAge` (the page cache only) forbid: a recording job reads no cache, so its every page was a
 * `SCRAPE_LOCKDOWN_CACHE_MISS`, and with `minAge` a page fetched live. `cacheOnly` is the request's scrape options.
 */
export function refineRecord(
  o: { record: boolean; zeroDataRetention: boolean },
  cacheOnly: CacheOnlyOptions,
  ctx: z.RefinementCtx,
) {
  if (!o.record) return;
  if (o.zeroDataRetention) {
    ctx.addIssue({
      code: 'custom',
      path: ['record'],
      message:
        'record writes every response to a WARC file on disk, which zeroDataRetention forbids: drop one of them.',
    });
  }
  const option = cacheOnly.lockdown ? 'lockdown' : cacheOnly.minAge !== undefined ? 'minAge' : undefined;
  if (option) {
    ctx.addIssue({
      code: 'custom',
      path: ['record'],
      message: `record fetches every page to write it to a WARC file, and ${option} serves the page cache only, never a fetch: drop one of them.`,
    });
  }
}

/** Cross-field rules of reference §3.2, reported at the path they concern. */
export function refineScrapeOptions(
  options: RefinableScrapeOptions,
  ctx: z.RefinementCtx,
  base: (string | number)[] = [],
) {
  const formats = options.formats;
  if (formats.filter((f) => f.type === 'screenshot').length > 1) {
    ctx.addIssue({ code: 'custom', message: 'You may only specify one screenshot format', path: [...base, 'formats'] });
  }
  if (formats.some((f) => f.type === 'changeTracking') && !formats.some((f) => f.type === 'markdown')) {
    ctx.addIssue({
      code: 'custom',
      message: 'The changeTracking format requires the markdown format to be specified as well',
      path: [...base, 'formats'],
    });
  }
  if (formats.some((f) => f.type === 'json') && formats.some((f) => f.type === 'deterministicJson')) {
    ctx.addIssue({
      code: 'custom',
      message: 'Cannot specify both json and deterministicJson formats',
      path: [...base, 'formats'],
    });
  }
  if (formats.length > 1 && formats.some((f) => f.type === 'rawBase64')) {
    ctx.addIssue({
      code: 'custom',
      message: 'The rawBase64 format cannot be combined with other formats',
      path: [...base, 'formats'],
    });
  }
  const json = formats.find((f) => f.type === 'json');
  if (json && isSchemalessDictionary(json.schema)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'The json format schema is a schema-less dictionary (no `properties`, `additionalProperties: true`), which ' +
        'structured-output models such as OpenAI models cannot fill. List the fields you expect under `properties`.',
      path: [...base, 'formats'],
    });
  }
  for (const format of formats) {
    if ((format.type === 'json' || format.type === 'changeTracking') && isEmptyConvertedSchema(format.schema)) {
      ctx.addIssue({ code: 'custom', message: emptySchemaMessage(format.type), path: [...base, 'formats'] });
    }
  }
  if (options.timeout && options.waitFor && options.waitFor > options.timeout / 2) {
    ctx.addIssue({ code: 'custom', message: 'waitFor must not exceed half of timeout', path: [...base, 'waitFor'] });
  }
  for (const message of actionLimitProblems(options.actions ?? [], options.waitFor)) {
    ctx.addIssue({ code: 'custom', message, path: [...base, 'actions'] });
  }
}

interface DefaultableScrapeOptions {
  headers?: Record<string, string> | undefined;
  actions?: unknown[] | undefined;
  skipTlsVerification?: boolean | undefined;
}

interface ResolvableScrapeOptions extends DefaultableScrapeOptions {
  onlyMainContent: boolean;
  excludeTags?: string[] | undefined;
  onlyCleanContent?: boolean | undefined;
}

/**
 * The options after the rules that set one from another: `skipTlsVerification`'s default, `onlyCleanContent`
 * (the whole page without its furniture, `clean-content.ts`).
 */
export function resolveScrapeOptions<T extends ResolvableScrapeOptions>(
  options: T,
): T & { skipTlsVerification: boolean } {
  const resolved = { ...options, skipTlsVerification: resolveSkipTls(options) };
  if (options.onlyCleanContent) {
    resolved.onlyMainContent = false;
    resolved.excludeTags = [...(options.excludeTags ?? []), ...CLEAN_CONTENT_SELECTORS];
  }
  return resolved;
}

/** `skipTlsVerification` defaults to true, except with custom headers or actions (reference §3.1). */
export function resolveSkipTls(options: DefaultableScrapeOptions): boolean {
  if (options.skipTlsVerification !== undefined) return options.skipTlsVerification;
  const hasHeaders = options.headers !== undefined && Object.keys(options.headers).length > 0;
  const hasActions = options.actions !== undefined && options.actions.length > 0;
  return !(hasHeaders || hasActions);
}

export const scrapeOptionsSchema = z
  .strictObject(scrapeOptionsShape)
  .superRefine((o, ctx) => refineScrapeOptions(o, ctx))
  .transform((o) => resolveScrapeOptions(o));

/**
 * Fields whose schema preprocesses its input (so zod infers `unknown`), typed as the v2 API takes them: the public
 * input types stay precise and assignable to the official SDK's.
 */
export interface PreprocessedScrapeFields {
  formats?: FormatInput[];
  parsers?: ParserInput[];
}

/** A `parsers` entry as the v2 API takes it. */
export type ParserInput =
  | 'pdf'
  | 'image'
  | {
      type: 'pdf';
      maxPages?: number;
      mode?: 'fast' | 'auto' | 'ocr';
      pages?: boolean;
      pageMarkdown?: boolean;
      blocks?: boolean;
      pageMarkers?: boolean;
    }
  | { type: 'image' };

type Precise<T> = Omit<T, keyof PreprocessedScrapeFields> & PreprocessedScrapeFields;

export type ScrapeOptionsInput = Precise<z.input<typeof scrapeOptionsSchema>>;
export type ScrapeOptions = z.output<typeof scrapeOptionsSchema>;

export const scrapeRequestSchema = z
  .strictObject({
    ...scrapeOptionsShape,
    url: urlSchema,
    origin: z.string().default('api'),
    integration: integrationSchema,
    zeroDataRetention: z.boolean().default(false),
    /**
     * crawlkit's own: write every response of the scrape (in the browser the document and its sub-resources) to a
     * WARC file, named in `metadata.warcFile`. The page is fetched, not served from the page cache.
     * @default false
     */
    record: z.boolean().default(false),
  })
  .superRefine((o, ctx) => {
    refineScrapeOptions(o, ctx);
    refineRecord(o, o, ctx);
  })
  .transform((o) => resolveScrapeOptions(o));

export type ScrapeRequestInput = Precise<z.input<typeof scrapeRequestSchema>>;
export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;

export { findFormat };
