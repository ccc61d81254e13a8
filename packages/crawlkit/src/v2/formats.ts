import { viewportSchema } from '@crawlkit/actions';
import { z } from 'zod';

import { schemaLibraryObject } from '../llm/schema-input.js';

/**
 * JSON Schema objects are passed through as plain objects (normalised later, reference §3.2); a zod schema (or any
 * Standard JSON Schema object) is converted to JSON Schema here, as the v2 SDK does.
 */
export const jsonSchemaObject = z.union([schemaLibraryObject, z.record(z.string(), z.unknown())]);

const plain = <T extends string>(type: T) => z.strictObject({ type: z.literal(type) });

export const screenshotFormatSchema = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: z.boolean().default(false),
  quality: z.number().int().min(1).max(100).optional(),
  viewport: viewportSchema.optional(),
});

export const jsonFormatSchema = z.strictObject({
  type: z.literal('json'),
  schema: jsonSchemaObject.optional(),
  prompt: z.string().max(10_000).optional(),
  /** Upstream screens the page for prompt injection before extraction; accepted, crawlkit's prompts fence the page. */
  checkPromptInjection: z.boolean().optional(),
});

export const changeTrackingFormatSchema = z.strictObject({
  type: z.literal('changeTracking'),
  modes: z.array(z.enum(['git-diff', 'json'])).default([]),
  schema: jsonSchemaObject.optional(),
  prompt: z.string().max(10_000).optional(),
  tag: z.string().nullable().default(null),
});

export const attributesFormatSchema = z.strictObject({
  type: z.literal('attributes'),
  selectors: z.array(z.strictObject({ selector: z.string().min(1), attribute: z.string().min(1) })).min(1),
});

/** `question` (2026): the model answers `question` from the page's most relevant passages (`answer`). */
export const questionFormatSchema = z.strictObject({
  type: z.literal('question'),
  question: z.string().min(1).max(10_000),
});

/** `highlights` (2026): the page's passages that answer `query`, ranked by BM25, in page order (`highlights`). */
export const highlightsFormatSchema = z.strictObject({
  type: z.literal('highlights'),
  query: z.string().min(1).max(10_000),
});

/** `query` (2026, deprecated upstream for `question`/`highlights`): `freeform` asks the model, `directQuote` quotes. */
export const queryFormatSchema = z.strictObject({
  type: z.literal('query'),
  prompt: z.string().min(1).max(10_000),
  mode: z.enum(['freeform', 'directQuote']).default('freeform'),
});

/** `deterministicJson` (2026): accepted; crawlkit has no deterministic extractor, the document says so. */
export const deterministicJsonFormatSchema = z.looseObject({
  type: z.literal('deterministicJson'),
  schema: jsonSchemaObject.optional(),
  prompt: z.string().max(10_000).optional(),
});

export const FORMAT_TYPES = [
  'markdown',
  'html',
  'rawHtml',
  'links',
  'images',
  'summary',
  'screenshot',
  'json',
  'changeTracking',
  'attributes',
  'branding',
  'question',
  'highlights',
  'query',
  'product',
  'menu',
  'audio',
  'video',
  'rawBase64',
  'deterministicJson',
] as const;

export type FormatType = (typeof FORMAT_TYPES)[number];

const formatObject = z.discriminatedUnion(
  'type',
  [
    plain('markdown'),
    plain('html'),
    plain('rawHtml'),
    plain('links'),
    plain('images'),
    plain('summary'),
    plain('branding'),
    plain('product'),
    plain('menu'),
    plain('audio'),
    plain('video'),
    plain('rawBase64'),
    screenshotFormatSchema,
    jsonFormatSchema,
    changeTrackingFormatSchema,
    attributesFormatSchema,
    questionFormatSchema,
    highlightsFormatSchema,
    queryFormatSchema,
    deterministicJsonFormatSchema,
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `Unknown format. Use one of: ${FORMAT_TYPES.join(', ')} (json, screenshot, changeTracking, attributes, question, highlights and query also take an object with options)`
        : undefined,
  },
);

/** A format entry: the string form is normalised to `{ type }` (reference §1). */
export const formatSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { type: value } : value),
  formatObject,
);

/** Formats that take options, so have no string form. */
type OptionsRequired = 'question' | 'highlights' | 'query';
export type FormatInput = Exclude<FormatType, OptionsRequired> | z.input<typeof formatObject>;
export type Format = z.output<typeof formatSchema>;
export type ScreenshotFormat = z.output<typeof screenshotFormatSchema>;
export type JsonFormat = z.output<typeof jsonFormatSchema>;
export type ChangeTrackingFormat = z.output<typeof changeTrackingFormatSchema>;
export type AttributesFormat = z.output<typeof attributesFormatSchema>;
export type QuestionFormat = z.output<typeof questionFormatSchema>;
export type HighlightsFormat = z.output<typeof highlightsFormatSchema>;
export type QueryFormat = z.output<typeof queryFormatSchema>;

/** Finds the format of a type in a normalised list. */
export function findFormat<T extends Format['type']>(
  formats: readonly Format[],
  type: T,
): Extract<Format, { type: T }> | undefined {
  return formats.find((f): f is Extract<Format, { type: T }> => f.type === type);
}

/**
 * Normalises a JSON schema for extraction (reference §3.2): drops `additionalProperties` from objects that have
 * `properties`, and removes `required` entries that name missing properties. Returns a new object.
 */
export function normalizeJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = visit(value);
    const props = out.properties;
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      delete out.additionalProperties;
      if (Array.isArray(out.required)) {
        out.required = out.required.filter((name) => typeof name === 'string' && name in props);
      }
    }
    return out;
  };
  return visit(schema) as Record<string, unknown>;
}

/** A schema with no `properties` but `additionalProperties: true` cannot be filled by structured-output models. */
export function isSchemalessDictionary(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  const props = schema.properties;
  const hasProps = props !== undefined && props !== null && typeof props === 'object' && Object.keys(props).length > 0;
  return !hasProps && schema.additionalProperties === true;
}
