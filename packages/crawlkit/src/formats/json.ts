import { z } from 'zod';

import { schemaLibraryObject } from '../llm/schema-input.js';
import { addModelUsage, pushWarnings } from '../scrape/scrape-state.js';
import { defineFormat } from './format-module.js';

/**
 * JSON Schema objects are passed through as plain objects (normalised later, reference §3.2); a zod schema (or any
 * Standard JSON Schema object) is converted to JSON Schema here, as the v2 SDK does.
 */
export const jsonSchemaObject = z.union([schemaLibraryObject, z.record(z.string(), z.unknown())]);

/** A schema with no `properties` but `additionalProperties: true` cannot be filled by structured-output models. */
export function isSchemalessDictionary(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  const props = schema.properties;
  const hasProps = props !== undefined && props !== null && typeof props === 'object' && Object.keys(props).length > 0;
  return !hasProps && schema.additionalProperties === true;
}

/**
 * A schema of `$schema` alone, which accepts any answer: what firecrawl-js (4.x) sends for a zod 4 schema, which its
 * zod-to-json-schema (written for zod 3) converts to `{ "$schema": "…draft-07/schema#" }`, the fields lost.
 */
export function isEmptyConvertedSchema(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  const keys = Object.keys(schema);
  return keys.length > 0 && keys.every((key) => key === '$schema');
}

/** Why an empty converted schema is refused, and what to send instead (`format`: json or changeTracking). */
export function emptySchemaMessage(format: string): string {
  return (
    `The ${format} format schema has nothing but \`$schema\`, so it would accept any answer: the fields were lost ` +
    'on the way, as firecrawl-js loses those of a zod 4 schema (its zod-to-json-schema reads zod 3). Send the JSON ' +
    'Schema itself (`schema: z.toJSONSchema(MySchema)` with zod 4), or leave `schema` out and describe the data in ' +
    '`prompt`.'
  );
}

/**
 * `json`: structured data extracted from the page's markdown by the configured language model, against `schema`
 * (validated, one repair round) and/or guided by `prompt`. Needs a model; costs 5 credits. An answer that stays
 * invalid fails the page. Zero data retention keeps the page from the model: upstream's warning, no `json`.
 */
export const jsonFormat = defineFormat({
  type: 'json',
  schema: z.strictObject({
    type: z.literal('json'),
    schema: jsonSchemaObject.optional(),
    prompt: z.string().max(10_000).optional(),
    /** Upstream screens the page for prompt injection first; accepted, crawlkit's prompts fence the page. */
    checkPromptInjection: z.boolean().optional(),
  }),
  extraction: () => ({ markdown: true }),
  needsModel: () => 'json format',
  zeroDataRetentionWarning: () => 'JSON mode is not supported with zero data retention.',
  credits: () => ({ base: 5 }),
  produce: async (format, state) => {
    const extracted = await state.ctx.llm.extract({
      markdown: state.extraction.markdown ?? '',
      ...(format.schema !== undefined ? { schema: format.schema } : {}),
      ...(format.prompt !== undefined ? { prompt: format.prompt } : {}),
      signal: state.signal,
      onUsage: (usage) => addModelUsage(state, usage),
      progress: state.deadline.modelTask(),
    });
    state.document.json = extracted.value;
    pushWarnings(state, extracted.warnings);
  },
});
