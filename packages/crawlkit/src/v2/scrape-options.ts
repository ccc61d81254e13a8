import { actionLimitProblems, actionSchema } from '@crawlkit/actions';
import { isCountryCode } from '@crawlkit/fetcher';
import { z } from 'zod';

import { isSchemalessDictionary } from '../formats/json.js';
import { findFormat, formatSchema, type FormatInput } from './formats.js';
import { checkV2Url } from './url.js';

/** Cache age accepted by default: two days (reference §3.1). */
export const DEFAULT_MAX_AGE_MS = 172_800_000;

const INTEGRATIONS = [
  'dify',
  'zapier',
  'pipedream',
  'raycast',
  'langchain',
  'crewai',
  'llamaindex',
  'n8n',
  'camelai',
  'make',
  'flowise',
  'metagpt',
  'relevanceai',
  'viasocket',
] as const;

export const integrationSchema = z
  .string()
  .refine((v) => v.startsWith('_') || (INTEGRATIONS as readonly string[]).includes(v), {
    message: `Invalid enum value. Expected ${INTEGRATIONS.join(' | ')} or a value starting with "_"`,
  })
  .nullish()
  .transform((v) => v ?? null);

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

/**
 * A file parser: `pdf` (`mode` `fast`: the text layer only; `auto`: OCR of pages without one; `ocr`: OCR of every
 * page) or `image` (OCR of PNG, JPEG, TIFF and WebP images; opt-in: not in the default parsers).
 */
const parserSchema = z.preprocess(
  (v) => (v === 'pdf' || v === 'image' ? { type: v } : v),
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('pdf'),
      maxPages: z.number().int().min(1).max(10_000).optional(),
      mode: z.enum(['fast', 'auto', 'ocr']).optional(),
    }),
    z.strictObject({ type: z.literal('image') }),
  ]),
);

export const locationSchema = z.strictObject({
  country: z
    .string()
    .refine(isCountryCode, { message: 'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.' })
    .transform((c) => c.toLowerCase())
    .default('us-generic'),
  languages: z.array(z.string().min(1)).optional(),
});

/** The scrape options shared by scrape, batch (top level) and crawl (`scrapeOptions`), with their v2 defaults. */
export const scrapeOptionsShape = {
  formats: z.array(formatSchema).default([{ type: 'markdown' }]),
  onlyMainContent: z.boolean().default(true),
  includeTags: tagsSchema.optional(),
  excludeTags: tagsSchema.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  waitFor: z.number().int().min(0).max(60_000).default(0),
  mobile: z.boolean().default(false),
  skipTlsVerification: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
  parsers: z.array(parserSchema).default([{ type: 'pdf' }]),
  actions: z.array(actionSchema).optional(),
  location: locationSchema.optional(),
  removeBase64Images: z.boolean().default(true),
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
};

interface RefinableScrapeOptions {
  formats: { type: string; schema?: Record<string, unknown> }[];
  waitFor: number;
  timeout?: number | undefined;
  actions?: { type: string; milliseconds?: number | undefined; selector?: string | undefined }[] | undefined;
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
  .transform((o) => ({ ...o, skipTlsVerification: resolveSkipTls(o) }));

/**
 * Fields whose schema preprocesses its input (so zod infers `unknown`), typed as the v2 API takes them: the public
 * input types stay precise and assignable to the official SDK's.
 */
export interface PreprocessedScrapeFields {
  formats?: FormatInput[];
  parsers?: (
    'pdf' | 'image' | { type: 'pdf'; maxPages?: number; mode?: 'fast' | 'auto' | 'ocr' } | { type: 'image' }
  )[];
}

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
  })
  .superRefine((o, ctx) => refineScrapeOptions(o, ctx))
  .transform((o) => ({ ...o, skipTlsVerification: resolveSkipTls(o) }));

export type ScrapeRequestInput = Precise<z.input<typeof scrapeRequestSchema>>;
export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;

export { findFormat };
